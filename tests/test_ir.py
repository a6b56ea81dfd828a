"""Tier 3: IR capture and attribution, on real Triton compiles for sm_90 (no GPU needed)."""

from __future__ import annotations

import fcntl
import os
import tempfile
import textwrap
from pathlib import Path

import pytest

from diagnose.ir import IRCaptureError, attribute, capture_cuda, capture_from_json, to_json
from diagnose.ir.dumps import parse_header, split_dump
from diagnose.ir.machine import parse_ptxas_log, parse_sass
from diagnose.ir.signature import diff_stages, signature_of

FIXTURES = Path(__file__).parent / "ir_fixtures"

TASK_PY = '''
import torch
META = {"name": "t", "sizes": {"small": {"N": 4096}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(4096, generator=g), torch.randn(4096, generator=g))
def reference(x, y):
    return x + y
'''

VADD = '''
import torch, triton, triton.language as tl

@triton.jit{decorator}
def add_kernel(x_ptr, y_ptr, out_ptr, n, stride, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs * stride, mask=m)
    y = tl.load(y_ptr + offs * stride, mask=m)
    tl.store(out_ptr + offs * stride, x + y, mask=m)

def run(x, y):
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), x.stride(0), BLOCK=1024)
    return out
'''

GEMM_TASK = '''
import torch
META = {"name": "gemm"}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    a = torch.randn(128, 128, generator=g).half()
    return (a, torch.randn(128, 128, generator=g).half())
'''

GEMM = '''
import torch, triton, triton.language as tl

@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :] * sak)
        b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :] * sbn)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc.to(tl.float16))

def run(a, b):
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), dtype=a.dtype)
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1), BM=64, BN=64, BK=32)
    return c
'''


def make_task(root: Path, name: str, task_py: str, baseline: str) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "task.py").write_text(textwrap.dedent(task_py))
    (folder / "baseline.py").write_text(textwrap.dedent(baseline))
    return folder


@pytest.fixture(scope="module")
def vadd_captures(tmp_path_factory):
    root = tmp_path_factory.mktemp("vadd")
    runtime = make_task(root, "runtime_stride", TASK_PY,
                        VADD.format(decorator='(do_not_specialize=["stride"])'))
    specialised = make_task(root, "specialised_stride", TASK_PY, VADD.format(decorator=""))
    return capture_cuda(runtime), capture_cuda(specialised)


def test_capture_records_tritons_own_specialisation_of_the_launch(vadd_captures):
    runtime, specialised = vadd_captures
    assert runtime.kernels[0].specialization.signature["stride"] == "i32"
    # stride == 1 at run time: Triton specialises it to a constexpr, and so does the capture
    assert specialised.kernels[0].specialization.signature["stride"] == "constexpr"
    assert specialised.kernels[0].specialization.constexprs["stride"] == 1
    assert runtime.kernels[0].specialization.attrs["x_ptr"] == [["tt.divisibility", 16]]
    assert runtime.kernels[0].specialization.grid == [4]


def test_runtime_stride_gives_scalar_loads_and_specialised_stride_vector_loads(vadd_captures):
    runtime, specialised = vadd_captures
    rt_sig = signature_of(next(s for s in runtime.kernels[0].stages if s.name == "ptx"))
    sp_sig = signature_of(next(s for s in specialised.kernels[0].stages if s.name == "ptx"))
    assert set(rt_sig.global_loads) == {"32"}
    assert set(sp_sig.global_loads) == {"128"}
    assert set(runtime.kernels[0].sass.global_loads) == {"32"}
    assert set(specialised.kernels[0].sass.global_loads) == {"128"}


def test_scalar_loads_are_attributed_to_coalesce_with_the_runtime_argument(vadd_captures):
    runtime, specialised = vadd_captures
    found = [s for s in attribute(runtime) if s.id == "scalar-global-loads"]
    assert len(found) == 1
    assert found[0].pass_arg == "tritongpu-coalesce"
    assert any("stride: i32" in line for line in found[0].evidence)
    assert not [s for s in attribute(specialised) if s.id == "scalar-global-loads"]


def test_ptxas_facts_and_reproduction_commands_are_recorded(vadd_captures):
    runtime, _ = vadd_captures
    facts = runtime.kernels[0].ptxas
    assert facts.registers and facts.registers > 0
    assert facts.spill_stores == 0
    assert any("ptxas" in c and "-v" in c for c in runtime.commands)
    assert runtime.commands[0].startswith("MLIR_ENABLE_DUMP=1")


def test_capture_round_trips_through_json(vadd_captures):
    runtime, _ = vadd_captures
    again = capture_from_json(to_json(runtime))
    assert again == runtime


@pytest.mark.slow
def test_gemm_on_sm90_gets_warp_group_mma_from_accelerate_matmul(tmp_path):
    capture = capture_cuda(make_task(tmp_path, "gemm", GEMM_TASK, GEMM))
    kir = capture.kernels[0]
    assert kir.failure is None
    introduced = [d for d in kir.diffs for c in d.changes
                  if c.field == "warp_group_dots" and not c.before and c.after]
    assert [d.pass_arg for d in introduced] == ["tritongpu-accelerate-matmul"]
    mma = [d for d in kir.diffs for c in d.changes
           if c.field == "mma_versions" and 3 in c.after and 3 not in (c.before or [])]
    assert mma and mma[0].pass_arg == "tritongpu-accelerate-matmul"
    ptx = next(s for s in kir.stages if s.name == "ptx")
    assert "wgmma.mma_async" in ptx.text
    assert not [s for s in attribute(capture) if s.id == "dot-without-wgmma"]


@pytest.mark.parametrize("body, phase", [
    # a type error the compiler reports: arange needs a power-of-two range
    ("offs = tl.program_id(0) * BLOCK + tl.arange(0, 1000)", "frontend"),
    # a Python syntax error: the kernel file does not even import
    ("offs = tl.program_id(0) * BLOCK + (", "launcher"),
])
def test_broken_kernel_yields_compile_failure_evidence(tmp_path, body, phase):
    source = VADD.format(decorator="").replace(
        "offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)", body)
    capture = capture_cuda(make_task(tmp_path, "broken", TASK_PY, source))
    assert len(capture.failures) == 1
    failure = capture.failures[0]
    assert failure.phase.startswith(phase)
    assert ("power of 2" in failure.message) if phase == "frontend" else (
        "SyntaxError" in failure.message)
    assert attribute(capture)[0].id == "compile-failure"


TWO_LAUNCHES = '''
import torch, triton, triton.language as tl

@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)

@triton.jit
def add_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(a_ptr + offs, mask=m) + tl.load(b_ptr + offs, mask=m), mask=m)

def run(x, y):
    tmp = torch.empty_like(x)
    out = torch.empty_like(x)
    scale_kernel[(4,)](x, tmp, x.numel(), BLOCK=1024)
    add_kernel[(4,)](tmp, y, out, x.numel(), BLOCK=1024)
    return out
'''


def test_buffer_handed_between_launches_is_recorded_as_an_intermediate(tmp_path):
    from diagnose.ir.tier import tier3_result

    capture = capture_cuda(make_task(tmp_path, "chain", TASK_PY, TWO_LAUNCHES))
    assert [k.kernel for k in capture.kernels] == ["scale_kernel", "add_kernel"]
    # tmp goes from scale_kernel's y_ptr to add_kernel's a_ptr; x, y and out are the caller's
    # with its size against the call's inputs (x, y: 2 x 16 KB), so a small hand-over weighs less
    assert capture.intermediates == [{"producer": "scale_kernel", "producer_arg": "y_ptr",
                                      "consumer": "add_kernel", "consumer_arg": "a_ptr",
                                      "bytes": 16384, "input_bytes": 32768}]
    result = tier3_result(capture, attribute(capture),
                          {"common-unfused-launches": "fuse-launches"})
    chain = next(f for f in result.findings if f.kind == "launch-chain")
    assert chain.rewrite_family == "fuse-launches" and chain.evidence["weight"] == 3
    assert capture_from_json(to_json(capture)).intermediates == capture.intermediates


ONE_WARP_ROWS = '''
import torch, triton, triton.language as tl

@triton.jit
def row_softmax(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * n + cols, mask=cols < n, other=float("-inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + tl.program_id(0) * n + cols, e / tl.sum(e, axis=0), mask=cols < n)

def run(x, y):
    out = torch.empty_like(x)
    row_softmax[(1,)](x, out, x.numel(), BLOCK=8192, num_warps={warps})
    return out
'''


@pytest.mark.parametrize("warps,mechanism", [(1, "few-warps")])
def test_spills_of_a_whole_row_on_one_warp_name_the_warp_count(tmp_path, warps, mechanism):
    capture = capture_cuda(make_task(tmp_path, "rows", TASK_PY, ONE_WARP_ROWS.format(warps=warps)))
    [spills] = [s for s in attribute(capture) if s.id == "register-spills"]
    assert set(spills.mechanisms) == {mechanism}
    assert f"num_warps={warps}" in spills.summary


def test_one_launch_or_a_returned_buffer_is_no_intermediate():
    from diagnose.ir.cuda import intermediates

    log = [{"kernel": "a", "tensors": {"x": 1, "y": 2}}, {"kernel": "b", "tensors": {"y": 2}}]
    assert intermediates(log, {"inputs": [1], "outputs": [2]}) == []     # y is returned
    assert intermediates(log[:1], {"inputs": [1], "outputs": []}) == []  # one launch
    again = [{"kernel": "a", "tensors": {"w": 5}}, {"kernel": "a", "tensors": {"w": 5}}]
    assert intermediates(again, {"inputs": [], "outputs": []}) == []     # a workspace reused
    assert intermediates(log, None) == []                                # launcher failed


def test_missing_kernel_file_is_one_clear_error(tmp_path):
    with pytest.raises(IRCaptureError, match="does not exist"):
        capture_cuda(tmp_path / "nope.py")


def test_header_parser_reads_triton_3_6_before_dumps():
    stages = split_dump((FIXTURES / "dump_triton_3_6.txt").read_text())
    assert [(s.pass_arg, s.when) for s in stages] == [
        ("inline", "before"), ("canonicalize", "before"), ("tritongpu-coalesce", "before"),
        ("tritongpu-remove-layout-conversions", "before"), ("tritongpu-pipeline", "before"),
        ("tritongpu-pipeline", "internal"), ("tritongpu-prefetch", "before")]
    assert stages[1].scope == "tt.func@k"
    diffs = diff_stages(stages, [signature_of(s) for s in stages])
    by_pass = {d.pass_arg: d.changes for d in diffs}
    assert by_pass["tritongpu-coalesce"][0].field == "convert_layouts"
    assert (by_pass["tritongpu-remove-layout-conversions"][0].before,
            by_pass["tritongpu-remove-layout-conversions"][0].after) == (1, 0)


def test_header_parser_reads_triton_3_9_after_and_failed_dumps():
    stages = split_dump((FIXTURES / "dump_triton_3_9.txt").read_text())
    assert [(s.pass_arg, s.when) for s in stages] == [
        ("tritongpu-coalesce", "before"), ("tritongpu-coalesce", "after"),
        ("tritongpu-remove-layout-conversions", "before"),
        ("tritongpu-remove-layout-conversions", "after"),
        ("tritongpu-accelerate-matmul", "after")]
    assert stages[0].scope == "builtin.module@kernel_module"
    assert stages[-1].failed
    diffs = diff_stages(stages, [signature_of(s) for s in stages])
    assert [d.pass_arg for d in diffs] == ["tritongpu-coalesce",
                                           "tritongpu-remove-layout-conversions"]


def test_header_parser_ignores_ordinary_comment_lines():
    assert parse_header("// a comment about IR Dump Before lunch") is None
    assert parse_header("// -----// IR Dump After CSE (cse) //----- //")["pass_arg"] == "cse"


def test_ptxas_and_sass_parsers_read_spills_and_widths():
    facts = parse_ptxas_log("ptxas info    : Function properties for k\n"
                            "    48 bytes stack frame, 40 bytes spill stores, 36 bytes spill loads\n"
                            "ptxas info    : Used 255 registers, used 1 barriers, 8 bytes smem")
    assert (facts.registers, facts.spill_stores, facts.spill_loads, facts.shared_bytes) == (
        255, 40, 36, 8)
    sass = parse_sass("/*0180*/ @!P0 LDG.E.128 R16, desc[UR4][R2.64] ;\n"
                      "/*0190*/ LDG.E R12, desc[UR4][R20.64] ;\n"
                      "/*01a0*/ STG.E.U16 desc[UR4][R2.64], R4 ;\n/*01b0*/ STL [R1], R3 ;")
    assert sass.global_loads == {"128": 1, "32": 1}
    assert sass.global_stores == {"16": 1}
    assert sass.local_memory_ops == 1


GATHER = '''
import torch, triton, triton.language as tl

@triton.jit
def gather_kernel(x_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    idx = tl.load(idx_ptr + offs, mask=m, other=0)
    v = tl.load(x_ptr + idx, mask=m & (offs % 2 == 0), other=0.0)
    tl.store(out_ptr + offs, v, mask=m)

def run(x, y):
    out = torch.empty_like(x)
    idx = torch.arange(x.numel(), dtype=torch.int32)
    gather_kernel[(4,)](x, idx, out, x.numel(), BLOCK=1024)
    return out
'''


@pytest.fixture(scope="module")
def ascend_python():
    from diagnose.ir.ascend_env import ensure_ascend_env

    # PASSWISE_HOME (CI builds the env there once); otherwise a cache under the temp dir. A lock
    # around it: test workers (pytest -n) and concurrent runs share the folder, one builds it.
    home = Path(os.environ.get("PASSWISE_HOME") or Path(tempfile.gettempdir()) / "passwise-test-home")
    (home / "envs").mkdir(parents=True, exist_ok=True)
    try:
        with open(home / "envs" / ".ascend.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            return ensure_ascend_env(home, progress=lambda _msg: None)
    except IRCaptureError as exc:
        pytest.skip(f"the Ascend compiler environment could not be built: {exc}")


@pytest.mark.slow
def test_ascend_front_end_stages_and_unstructured_gather(tmp_path, ascend_python):
    from diagnose.ir.ascend import capture_ascend

    capture = capture_ascend(make_task(tmp_path, "gather", TASK_PY, GATHER),
                             python=ascend_python)
    kir = capture.kernels[0]
    assert kir.failure is None
    top = [s.pass_arg for s in kir.stages if "inside" not in s.name]
    assert top == ["make_ttir", "discrete-mask-access-conversion", "triton-to-annotation",
                   "triton-to-unstructure", "triton-to-hivm", "triton-to-hfusion",
                   "triton-to-llvm", "bubble-up-operation", "triton-to-linalg"]
    assert "linalg" in kir.stages[-1].text or "memref" in kir.stages[-1].text
    ids = {(s.id, s.pass_arg) for s in attribute(capture)}
    assert ("unstructured-access-fallback", "triton-to-unstructure") in ids
    assert ("discrete-mask-to-select", "discrete-mask-access-conversion") in ids
    assert any("bishengir-compile" in u for u in capture.unavailable)
    assert any("--mlir-print-ir-after-all" in c for c in capture.commands)


@pytest.mark.slow
def test_ascend_front_end_abort_after_the_access_passes_keeps_their_symptoms(ascend_python):
    # The seeded fft case: triton-adapter-opt 3.2.0 converts the strided mask in
    # discrete-mask-access-conversion, then trips an assertion in triton-to-linalg.
    from diagnose.ir.ascend import capture_ascend
    from diagnose.ir.tier import tier3_result

    root = Path(__file__).resolve().parents[1]
    capture = capture_ascend(root / "kernels" / "fft_pad_window_pack",
                             root / "bench" / "defects" / "ascend-fft-strided-mask" / "slow.py",
                             python=ascend_python)
    symptoms = attribute(capture)
    ids = {s.id for s in symptoms}
    assert "frontend-abort" in ids and "compile-failure" not in ids
    assert "discrete-mask-to-select" in ids
    result = tier3_result(capture, symptoms, {})
    abort = next(f for f in result.findings if f.kind == "frontend-abort")
    assert "Assertion" in abort.message and "not verified" in abort.message


@pytest.mark.slow
def test_ascend_capture_keeps_what_the_launcher_does_around_its_launches(ascend_python):
    """Found on a round-8 development case (2026-12-02): the Ascend capture ran the launcher but
    dropped its launch log, so a Python loop of launches was invisible to tier 3 on Ascend and a
    cheap strided-view symptom concluded instead."""
    from diagnose.ir.ascend import capture_ascend
    from diagnose.ir.tier import tier3_result

    case = Path(__file__).resolve().parents[1] / "bench" / "defects" / "ascend-conv1d-varlen-sequence-launch-loop"
    capture = capture_ascend(case / "task", case / "slow.py", python=ascend_python)
    assert capture.launch_counts.get("conv1d_seq_kernel", 0) > 1
    result = tier3_result(capture, attribute(capture), {"common-launch-loop": "one-launch-over-grid"})
    assert any(f.evidence.get("symptom") == "launch-count" or "launches conv1d_seq_kernel" in f.message
               for f in result.findings)


def test_scalar_loads_are_pinned_to_their_source_lines_with_the_missing_hint(vadd_captures):
    runtime, _ = vadd_captures
    found = next(s for s in attribute(runtime) if s.id == "scalar-global-loads")
    # lines 8, 9, 10 of the dedented VADD: the two loads and the store through `offs * stride`
    assert found.mechanisms["narrow-contiguity"] == [8, 9, 10]
    assert found.mechanisms["no-divisibility-hint"] == [8, 9, 10]


PTX_WITH_LOCS = '''
\t.loc\t1 12 20                         // k.py:12:20
\t@%p1 ld.global.v4.b32 { %r1, %r2, %r3, %r4 }, [ %rd1 + 0 ];
\t.loc\t2 40 5                          // standard.py:40:5
\tld.global.b16 { %rs1 }, [ %rd2 + 0 ];
\t.loc\t1 14 9                          // k.py:14:9
\tatom.global.gpu.acq_rel.add.f32 %r9, [ %rd3 + 0 ], %r8;
\tst.global.b16 [ %rd4 + 0 ], { %rs2 };
\t.file\t1 "/src/k.py"
\t.file\t2 "/site/triton/language/standard.py"
'''


def test_ptx_accesses_take_the_kernel_line_of_the_loc_before_them():
    from diagnose.ir.ptx_lines import accesses_by_line
    found = [(a.kind, a.bits, a.line) for a in accesses_by_line(PTX_WITH_LOCS, "/src/k.py")]
    # a .loc in another file (triton's standard library) is no line of the kernel
    assert found == [("ld", 128, 12), ("ld", 16, None), ("atom", 0, 14), ("st", 16, 14)]


def test_ascend_environment_progress_goes_to_stderr_not_the_json_on_stdout(capsys):
    from diagnose.ir.ascend_env import ensure_ascend_env, to_stderr
    assert ensure_ascend_env.__defaults__[1] is to_stderr
    to_stderr("installing")
    out = capsys.readouterr()
    assert out.out == "" and "installing" in out.err


def test_dump_captured_from_triton_3_9_splits_with_colon_headers_and_options():
    # Captured with Triton 3.9.0 (MLIR_ENABLE_DUMP=1) from a small GEMM kernel of ours:
    # 3.9 writes "Before Name: arg{options}" where 3.6 wrote "Before Name (arg)".
    from diagnose.ir.dumps import split_dump

    text = (Path(__file__).parent / "ir_fixtures" / "dump_triton_3_9_captured.txt").read_text()
    stages = split_dump(text)
    assert [s.pass_arg for s in stages] == ["inline", "tritongpu-accelerate-matmul",
                                            "triton-nvidia-check-matmul-two-cta"]
    assert "ttng.warp_group_dot" in stages[2].text and "ttng.warp_group_dot" not in stages[1].text


def test_a_capture_leaves_no_scratch_files_behind(tmp_path, monkeypatch):
    """Found in session 25 (2026-12-04): every capture left its dump folder (~16 MB a launch) and
    its child's Triton cache in the temp folder; 1,449 of each had piled up in /tmp."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))  # the child's temp folder
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # and this process's
    monkeypatch.delenv("TRITON_CACHE_DIR", raising=False)
    capture = capture_cuda(make_task(tmp_path, "vadd", TASK_PY, VADD.format(decorator="")))
    assert capture.kernels and capture.kernels[0].stages  # the dumps were read before they went
    # torch keeps its own per-user cache there (torchinductor_<user>); ours must all be gone
    assert sorted(p.name for p in scratch.iterdir() if p.name.startswith("passwise")) == []
    kept = tmp_path / "kept"  # a folder the caller names is the caller's: it stays
    capture_cuda(tmp_path / "vadd", work_dir=kept)
    assert (kept / "report.json").exists()
