"""The runner as a gate that cannot be gamed: one test per class of candidate that the old runner
accepted (tests/runner_fixtures/gate/README.md lists its verdicts), correct-but-unusual candidates
that must still pass, and the GPU-only classes (skipped without a GPU). Every verify runs for real
in a sandboxed child process, Triton kernels in the interpreter and compiled for sm_90."""

from __future__ import annotations

import os
import shutil
import textwrap
from pathlib import Path

import pytest
import torch

from diagnose.runner import integrity, probes
from diagnose.runner.sandbox import network_namespace_wrapper
from diagnose.runner.verify import VerifyOptions, verify

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "runner_fixtures"
VECADD, FLATTEN, SOFTMAX = FIX / "vecadd", FIX / "gate" / "flatten", ROOT / "kernels" / "softmax"
BAD, GOOD, GPU = FIX / "gate" / "bad", FIX / "gate" / "good", FIX / "gate" / "gpu"


def gate(task: Path, candidate: Path, **kw) -> dict:
    """One seed, float32, no probes unless asked: each verify is one child."""
    opts = {"seeds": 1, "dtypes": ["float32"], "device": "cpu", "timeout_s": 60.0, "probes": False, **kw}
    return verify(str(task), str(candidate), VerifyOptions(**opts)).to_json()


# --- 1. what runs -------------------------------------------------------------------------------

@pytest.mark.parametrize("fixture,op,line", [
    ("getattr_fallback", "aten.add.Tensor", 7),
    ("exec_fallback", "aten.add.Tensor", 10),
    ("numpy_fallback", "Tensor.numpy", 7),
])
def test_torch_reached_at_run_time_is_a_torch_fallback_naming_the_op_and_line(fixture, op, line):
    v = gate(VECADD, BAD / f"{fixture}.py")
    assert v["static_findings"] == []  # the AST check let it through
    assert v["verdict"] == "torch_fallback", v["cause"]
    assert v["torch_ops"][0]["op"].startswith(op) and v["torch_ops"][0]["at"] == f"{fixture}.py:{line}"
    assert f"{op}" in v["cause"] and f"{fixture}.py:{line}" in v["cause"]


# --- 2. inputs are read-only, outputs do not alias them ----------------------------------------

def test_candidate_that_writes_into_an_input_is_mutates_input():
    v = gate(VECADD, BAD / "mutates_input.py")
    assert v["verdict"] == "mutates_input"
    assert v["cause"].startswith("run() changed input 1 in place")


def test_output_that_is_a_view_of_an_input_is_refused_unless_the_reference_returns_one(tmp_path):
    v = gate(FLATTEN, BAD / "returns_view.py")
    assert v["verdict"] == "aliases_input"
    assert "output 0 shares memory with input 0" in v["cause"]
    task = tmp_path / "flatten_view"
    shutil.copytree(FLATTEN, task)
    src = (task / "task.py").read_text().replace("x.reshape(-1).clone()", "x.reshape(-1)")
    (task / "task.py").write_text(src)
    assert gate(task, BAD / "returns_view.py")["verdict"] == "pass"


def test_task_declaring_in_place_semantics_checks_the_input_against_the_reference(tmp_path):
    task = tmp_path / "add_into"
    shutil.copytree(VECADD, task)
    src = (task / "task.py").read_text().replace('"deterministic": True,', '"deterministic": True,\n    "inplace": [0],')
    (task / "task.py").write_text(src.replace("    return x + y", "    return x.add_(y)"))
    cand = tmp_path / "add_into.py"
    cand.write_text((BAD / "mutates_input.py").read_text().replace(
        "tl.store(y_ptr + offs, total * 0, mask=mask)", "tl.store(x_ptr + offs, total, mask=mask)").replace(
        "    return out\n", "    return x\n"))
    v = gate(task, cand)
    assert v["verdict"] == "pass", v["cause"]


# --- 3. outputs are fresh ------------------------------------------------------------------------

@pytest.mark.parametrize("seeds", [1, 2])  # 1: the case calls again itself; 2: seed 1 reuses seed 0's buffers
def test_result_cached_by_buffer_address_is_a_stale_result(seeds):
    v = gate(VECADD, BAD / "cache_by_ptr.py", seeds=seeds)
    assert v["verdict"] == "stale_result", v["cause"]
    assert "freshly allocated copy of the same inputs is right" in v["cause"]


def test_output_memory_the_kernel_never_writes_is_poison_not_zeros():
    v = gate(FIX / "kernelbench_relu.py", BAD / "relu_skips_zeros.py", dtypes=None)
    assert v["verdict"] == "wrong_result"
    assert v["sizes"][0]["seed"] == 0 and "NaN" in v["cause"]


# --- 4. probes -----------------------------------------------------------------------------------

@pytest.mark.parametrize("fixture,probe,detail", [
    ("fixed_block", "ragged", "M=67, N=131"),
    ("no_max_subtraction", "large_magnitude", "floating-point inputs x256"),
])
def test_kernel_tuned_to_the_test_data_fails_a_generic_probe(fixture, probe, detail):
    v = gate(SOFTMAX, BAD / f"{fixture}.py", probes=True)
    assert v["verdict"] == "wrong_result", v["cause"]
    assert f"probe {probe} ({detail})" in v["cause"]
    assert all(c["status"] == "ok" for c in v["sizes"] if "probe" not in c)  # the task's own data passes


def test_probe_declared_by_the_task_runs_and_is_named(tmp_path):
    task = tmp_path / "vecadd_long"
    shutil.copytree(VECADD, task)
    src = (task / "task.py").read_text().replace(
        '"deterministic": True,', '"deterministic": True,\n    "probes": [{"name": "long", "size": {"N": 5000}}],')
    (task / "task.py").write_text(src)
    short = tmp_path / "sixteen_blocks.py"
    short.write_text((VECADD / "baseline.py").read_text().replace("(triton.cdiv(n, 256),)", "(16,)"))
    v = gate(task, short, probes=True)
    assert v["verdict"] == "wrong_result" and "probe task:long (N=5000)" in v["cause"]
    assert [c["probe"] for c in v["sizes"] if "probe" in c] == ["ragged", "large_magnitude", "task:long"]


def test_raggable_dimensions_are_those_some_size_sets_off_the_grid_of_16():
    meta = {"sizes": {"small": {"M": 64, "N": 128, "D": 64}, "ragged": {"M": 1000, "N": 1531, "D": 64}}}
    assert probes.raggable(meta) == ["M", "N"]
    assert all(probes._off_grid(d, s) % 16 for d in (16, 64, 128, 1024) for s in probes.RAGGED_STEPS)


# --- 5. budgets ------------------------------------------------------------------------------------

@pytest.mark.slow
def test_whole_run_budget_stops_a_slow_candidate_and_skips_the_rest_with_the_reason():
    v = gate(VECADD, BAD / "sleeps.py", seeds=3, budget_s=4.0)
    assert v["verdict"] == "timeout"
    assert "whole-run budget of 4 s ran out" in v["cause"]
    skipped = [c for c in v["sizes"] if c["status"] == "skipped"]
    assert skipped and all("budget of 4 s ran out" in c["cause"] for c in skipped)


# --- 6. sandbox ------------------------------------------------------------------------------------

@pytest.mark.parametrize("fixture,action", [
    ("writes_outside", "writing /tmp/passwise-gate-fixture-was-here"),
    ("opens_socket", "resolving a host name"),
    ("starts_process", "starting a process (true)"),
    ("walks_frames", "reading the call stack (sys._getframe)"),
])
def test_sandbox_refuses_what_a_kernel_never_needs_even_when_the_candidate_catches_it(fixture, action):
    marker = Path("/tmp/passwise-gate-fixture-was-here")
    marker.unlink(missing_ok=True)
    v = gate(VECADD, BAD / f"{fixture}.py")
    assert v["verdict"] == "sandbox_violation", v["cause"]
    assert v["violations"][0]["action"] == action and v["violations"][0]["at"].startswith(f"{fixture}.py:")
    assert not marker.exists()
    assert v["sandbox"]["private_dir"] and v["sandbox"]["python_audit"]
    assert v["sandbox"]["network_namespace"] == bool(network_namespace_wrapper())


def test_answer_key_beside_the_task_is_out_of_reach(tmp_path):
    key = tmp_path / "answer_key.txt"
    key.write_text("42")
    near = tmp_path / "reads_sibling.py"
    near.write_text(textwrap.dedent(f'''\
        """Reads a file next to itself (gone in the private copy), then the original by absolute path."""
        from pathlib import Path


        def run(x, y):
            assert not (Path(__file__).parent / "answer_key.txt").exists()
            return open({str(key)!r}).read()
        '''))
    v = gate(VECADD, near)
    assert v["verdict"] == "sandbox_violation"
    assert v["violations"][0]["action"] == f"reading {key}"


# --- 7. what only the GPU compiler shows, on a CPU ---------------------------------------------------

def test_kernel_only_the_interpreter_accepts_is_a_compile_error():
    v = gate(VECADD, BAD / "python_global.py")
    assert v["verdict"] == "compile_error"
    assert "does not compile for sm_90" in v["cause"] and "SCALE" in v["cause"]


# --- 8. correct but unusual candidates pass every check -----------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("task,fixture", [
    ("softmax", "persistent_softmax"), ("softmax", "exp2_softmax"), ("gemm_fp16", "splitk_atomic_gemm"),
    ("sum", "fp64_finish_sum"), ("layernorm", "two_pass_layernorm"),
])
def test_correct_but_unusual_candidate_passes_with_probes_in_the_sandbox(task, fixture):
    # Triton compiles each kernel for sm_90 inside the sandbox (ptxas is started by Triton, not the candidate).
    v = gate(ROOT / "kernels" / task, GOOD / f"{fixture}.py", dtypes=None, seeds=2, probes=True)
    assert v["verdict"] == "pass", v["cause"]
    assert "probes passed: ragged, large_magnitude" in v["cause"]
    assert "ptxas" in v["sizes"][0]["trusted_processes"]  # the sm_90 compile really ran, sandboxed


# --- in-process pieces ------------------------------------------------------------------------------

def test_input_fingerprint_sees_bit_changes_including_nan_payloads():
    x = torch.tensor([1.0, float("nan"), -0.0])
    before = integrity.snapshot((x, 3))
    assert integrity.changed_inputs((x, 3), before, set()) == []
    x[2] = 0.0  # -0.0 == 0.0 numerically, not bitwise
    assert integrity.changed_inputs((x, 3), before, set()) == [0]
    assert integrity.changed_inputs((x, 3), before, {0}) == []


def test_alias_map_finds_views_and_slices_of_input_storage():
    x = torch.zeros(4, 4)
    assert integrity.aliases((x.view(-1), torch.zeros(3)), (x,)) == {0: 0}
    assert integrity.aliases(x[1:].t(), (torch.ones(2), x)) == {0: 1}
    assert integrity.aliases(x.clone(), (x,)) == {}


def test_result_that_depends_on_the_call_is_nondeterministic_when_calls_repeat():
    # On a GPU every case runs 3 times (races); on a CPU --runs asks for it. The first call is right.
    v = gate(VECADD, BAD / "flaky.py", seeds=2, runs=3)
    assert v["verdict"] == "nondeterministic", v["cause"]
    assert v["cause"].startswith("call 2 of 3 on the same inputs differs from the reference although call 1 matched")


def test_bench_checks_the_output_of_a_timed_call():
    from diagnose.runner.bench import BenchOptions, bench

    assert gate(VECADD, BAD / "lazy_when_timed.py", seeds=2)["verdict"] == "pass"  # called alone it is right
    report = bench(str(VECADD), str(BAD / "lazy_when_timed.py"),
                   BenchOptions(device="cpu", compile=False, rep_ms=20, warmup_ms=2))
    cand = report.points[0].impls["candidate"]
    assert cand.status == "wrong_result", cand.cause
    assert cand.cause.startswith("the output of a timed call is wrong: output 0 ")  # differs, or NaN where finite


def test_timing_that_misses_side_stream_work_is_replaced_by_the_device_synchronised_one():
    from diagnose.runner.timing import escaped

    assert not escaped(stream_ms=0.070, device_sync_ms=0.090)   # launch + sync latency on a real kernel
    assert not escaped(stream_ms=0.004, device_sync_ms=0.025)   # a tiny kernel: latency dominates
    assert escaped(stream_ms=0.004, device_sync_ms=0.071)       # the kernel ran on a side stream
    assert escaped(stream_ms=1.0, device_sync_ms=2.0)


# --- GPU only -------------------------------------------------------------------------------------

needs_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")


@needs_gpu
def test_split_k_race_is_refused_on_the_gpu():
    v = verify(str(ROOT / "kernels" / "gemm_fp16"), str(GPU / "splitk_race.py"),
               VerifyOptions(seeds=2, device="cuda", probes=False)).to_json()
    assert v["verdict"] in ("nondeterministic", "wrong_result"), v["cause"]


@needs_gpu
def test_side_stream_work_is_timed_with_a_device_wide_sync():
    from diagnose.runner.bench import BenchOptions, bench

    report = bench(str(SOFTMAX), str(GPU / "side_stream.py"),
                   BenchOptions(device="cuda", compile=False, sizes=["large"], dtypes=["float16"]))
    cand = report.points[0].impls["candidate"]
    assert cand.method == "device_sync" and cand.median_ms >= cand.device_sync_median_ms * 0.99


def test_child_with_no_files_to_copy_still_starts_in_an_existing_folder(tmp_path):
    """Found on the H200: the ceilings child (no task, no candidate) was given a sandbox folder
    that was never created, so every bench there died before it began."""
    from diagnose.runner.child import WorkItem
    from diagnose.runner.procs import REPO_ROOT, ChildOptions, _child_spec

    spec, _, cwd = _child_spec([WorkItem(kind="ceilings")], "cuda", tmp_path, ChildOptions())
    assert cwd == REPO_ROOT and "sandbox" not in spec  # our own code, writing the shared cache
    spec, _, cwd = _child_spec([WorkItem(kind="launch")], "cuda", tmp_path / "b", ChildOptions())
    assert cwd.is_dir() and spec["sandbox"]["dir"] == str(cwd)


def test_trusted_code_may_start_installed_programs_but_never_one_in_a_writable_folder(tmp_path):
    """Found on the H200: torch/Triton's own set-up there runs `file`; an allowlist of compilers
    refused it and every GPU case became a sandbox_violation. The candidate's own process starts
    stay refused (starts_process.py above runs the installed `true`)."""
    from diagnose.runner.sandbox import _installed_program

    true = shutil.which("true")
    assert true and _installed_program(os.path.realpath(true))
    planted = tmp_path / "file"
    planted.write_text("#!/bin/sh\n")
    planted.chmod(0o755)
    assert not _installed_program(str(planted))


def test_a_versioned_cuda_toolkit_is_a_system_folder_but_a_look_alike_elsewhere_is_not():
    """Found on the H200 (2026-12-02): inductor's `nvcc` probe still failed after the wrapper fix,
    with no candidate frame named: /usr/local/cuda/bin/nvcc resolves into /usr/local/cuda-13.0/bin,
    which the prefix list did not hold, so trusted code was refused a system compiler."""
    from diagnose.runner.sandbox import _installed_dir

    assert _installed_dir("/usr/local/cuda/bin") and _installed_dir("/usr/local/cuda-13.0/bin")
    assert _installed_dir("/usr/bin") and _installed_dir("/usr/local/bin/")
    assert not _installed_dir("/usr/local/cuda-13.0/bin/extra")  # only the toolkit's own bin
    assert not _installed_dir("/usr/local/cuda-13.0/lib64")
    assert not _installed_dir("/tmp/usr/local/cuda/bin") and not _installed_dir("/home/u/cuda/bin")


def test_programs_bundled_in_the_installed_torch_package_are_triton_tools():
    """Found on the H200 (2026-12-02): inductor compiles with torch's own ptxas
    (site-packages/torch/bin/ptxas), and every torch.compile timing was refused for it."""
    from diagnose.runner.sandbox import _package_dir, _tool_paths

    assert _package_dir("torch") == Path(torch.__file__).resolve().parent
    assert _package_dir("passwise-no-such-package") is None
    bundled = [p for p in (Path(torch.__file__).parent / "bin").iterdir() if p.is_file()]
    assert bundled  # the CPU wheel ships protoc and test binaries there
    tools = _tool_paths()
    assert all(str(p) in tools or os.path.realpath(p) in tools for p in bundled)


def test_a_trusted_probe_for_a_program_that_is_nowhere_gets_the_os_failure_not_a_refusal(tmp_path):
    """Found on the H200: torch.compile's references probe for `nvcc`, absent from PATH there, and
    every torch.compile timing became a sandbox_violation blamed on the candidate."""
    from diagnose.runner.sandbox import may_start

    assert may_start("passwise-no-such-program", frozenset()) == "absent"
    assert may_start("true", frozenset()) == "found"
    planted = tmp_path / "nvcc"
    planted.write_text("#!/bin/sh\n")
    planted.chmod(0o755)
    assert may_start(str(planted), frozenset()) is None  # written where a candidate could write
    assert may_start(str(tmp_path / "missing"), frozenset()) is None  # a path is never "absent"


def test_references_reduce_gemms_in_full_precision_and_the_defaults_come_back():
    from diagnose.runner.child import exact_references

    m = torch.backends.cuda.matmul
    before = (m.allow_fp16_reduced_precision_reduction, m.allow_bf16_reduced_precision_reduction, m.allow_tf32)
    with exact_references():
        assert not (m.allow_fp16_reduced_precision_reduction or m.allow_bf16_reduced_precision_reduction or m.allow_tf32)
    assert (m.allow_fp16_reduced_precision_reduction, m.allow_bf16_reduced_precision_reduction, m.allow_tf32) == before


def test_a_torch_compile_reference_does_not_change_which_ptxas_later_candidates_use(monkeypatch):
    """Found on the H200 (2026-12-02): inductor sets TRITON_PTXAS_PATH to torch's own ptxas the
    first time it compiles, and every candidate timed after it in the same child was built by it."""
    from diagnose.runner.child import _inductor_env_undone

    monkeypatch.delenv("TRITON_PTXAS_PATH", raising=False)
    with _inductor_env_undone():
        os.environ["TRITON_PTXAS_PATH"] = "/site-packages/torch/bin/ptxas"
    assert "TRITON_PTXAS_PATH" not in os.environ
    monkeypatch.setenv("TRITON_PTXAS_PATH", "/users/own/ptxas")
    with _inductor_env_undone():
        os.environ["TRITON_PTXAS_PATH"] = "/site-packages/torch/bin/ptxas"
    assert os.environ["TRITON_PTXAS_PATH"] == "/users/own/ptxas"
