"""The device runner on a CPU host: verdicts for good and bad candidates (run for real in child
processes, Triton kernels in the interpreter), the static torch-fallback check, and the CPU-side
parts of bench/profile/ceilings/suite."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from diagnose.runner import static_check
from diagnose.runner.bench import BenchOptions, bench
from diagnose.runner.ceilings import Ceilings, cache_path, load_cached, save
from diagnose.runner.compare import compare_outputs
from diagnose.runner.errors import RunnerError
from diagnose.runner.host import resolve_device
from diagnose.runner.profile import msprof_command, ncu_command, parse_ncu_csv
from diagnose.runner.roofline import place
from diagnose.runner.tasks import find_task
from diagnose.runner.verify import VerifyOptions, verify

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "runner_fixtures"
VECADD = str(FIX / "vecadd")
BAD = FIX / "candidates"


def quick(**kw) -> VerifyOptions:
    """One seed, one dtype: each verify is one child process with one case."""
    return VerifyOptions(**{"seeds": 1, "dtypes": ["float32"], "device": "cpu", "timeout_s": 60.0, **kw})


def cli(*args: str) -> tuple[int, dict]:
    proc = subprocess.run([sys.executable, "-m", "diagnose.runner", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    return proc.returncode, json.loads(proc.stdout)


# --- verify: real runs in a child process -----------------------------------------------------

@pytest.mark.slow
def test_baseline_passes_every_seed_and_dtype_in_the_interpreter():
    v = verify(VECADD, str(FIX / "vecadd" / "baseline.py"), VerifyOptions(seeds=2, device="cpu"))
    assert v.verdict == "pass", v.cause
    cases = [c for c in v.sizes if "probe" not in c]
    assert {(c["dtype"], c["seed"]) for c in cases} == {("float32", 0), ("float32", 1), ("float16", 0), ("float16", 1)}
    assert all(c["outputs"][0]["max_abs_err"] == 0.0 and c["outputs"][0]["shape"] == [1000] for c in cases)
    assert [c["probe"] for c in v.sizes if "probe" in c] == ["ragged", "large_magnitude"]
    assert v.device_info["triton_interpret"] is True and v.device_info["torch"] == torch.__version__


def test_wrong_result_reports_how_far_off_and_the_tolerance():
    v = verify(VECADD, str(BAD / "wrong.py"), quick())
    assert v.verdict == "wrong_result"
    assert "differs from the reference in 1000 of 1000 elements" in v.cause and "atol 1e-06" in v.cause
    assert v.sizes[0]["outputs"][0]["max_abs_err"] > 1.0


def test_segfaulting_candidate_becomes_a_crash_verdict_not_a_dead_runner():
    v = verify(VECADD, str(BAD / "segfault.py"), quick())
    assert v.verdict == "crash"
    assert "SIGSEGV" in v.cause and "size small" in v.cause


@pytest.mark.slow
def test_hanging_candidate_is_killed_and_reported_as_timeout():
    v = verify(VECADD, str(BAD / "hang.py"), quick(timeout_s=3.0))
    assert v.verdict == "timeout"
    assert "did not finish within 3 s" in v.cause


def test_raising_candidate_names_the_exception_and_its_line():
    v = verify(VECADD, str(BAD / "raises.py"), quick())
    assert v.verdict == "crash"
    assert "ValueError: block size must divide n at raises.py:5" in v.cause
    rest = v.sizes[1:]  # the probes: never run after a failure, each says why
    assert rest and all(c["status"] == "skipped" and c["cause"] == "skipped after the crash at size small, "
                        "float32, seed 0" for c in rest)


def test_kernel_the_compiler_rejects_is_a_compile_error():
    v = verify(VECADD, str(BAD / "compile_error.py"), quick())
    assert v.verdict == "compile_error"
    assert "did not compile" in v.cause and "arange's range must be a power of 2" in v.cause


def test_torch_fallback_is_rejected_before_anything_runs():
    v = verify(VECADD, str(BAD / "fallback.py"), quick())
    assert v.verdict == "torch_fallback"
    assert v.cause.startswith("run() calls torch.add at line 7")
    assert v.sizes == []  # nothing was executed


def test_syntax_error_and_missing_run_are_bad_candidates_in_one_sentence(tmp_path):
    broken = tmp_path / "syntax_error.py"
    broken.write_text('"""Does not parse."""\n\n\ndef run(x, y)\n    return x\n')
    syntax = verify(VECADD, str(broken), quick())
    missing = verify(VECADD, str(BAD / "no_run.py"), quick())
    assert syntax.verdict == missing.verdict == "bad_candidate"
    assert "syntax error at line 4" in syntax.cause
    assert "defines no run(*inputs)" in missing.cause
    assert syntax.cause.count(". ") == 0 and missing.cause.count(". ") == 0


def test_task_whose_reference_raises_is_a_bad_task(tmp_path):
    task = tmp_path / "broken"
    shutil.copytree(FIX / "vecadd", task)
    src = (task / "task.py").read_text().replace("    return x + y", "    raise RuntimeError('no reference')")
    (task / "task.py").write_text(src)
    v = verify(str(task), str(task / "baseline.py"), quick())
    assert v.verdict == "bad_task"
    assert "the reference raised RuntimeError: no reference" in v.cause


def test_task_missing_meta_keys_is_a_bad_task_naming_them(tmp_path):
    task = tmp_path / "nometa"
    shutil.copytree(FIX / "vecadd", task)
    src = (task / "task.py").read_text().replace('    "deterministic": True,\n', "").replace('    "level": 1,\n', "")
    (task / "task.py").write_text(src)
    v = verify(str(task), str(task / "baseline.py"), quick())
    assert v.verdict == "bad_task"
    assert "META lacks level, deterministic" in v.cause


@pytest.mark.slow
def test_kernelbench_file_is_read_as_a_one_size_task_and_modelnew_verified():
    spec = find_task(str(FIX / "kernelbench_relu.py"))
    assert (spec.kind, spec.sizes, spec.tol("float32")) == ("kernelbench", ["default"], {"atol": 1e-2, "rtol": 1e-2})
    v = verify(str(FIX / "kernelbench_relu.py"), str(FIX / "kernelbench_relu_new.py"),
               VerifyOptions(seeds=2, device="cpu"))
    assert v.verdict == "pass", v.cause
    assert v.sizes[0]["outputs"][0]["shape"] == [16, 1000]


def test_cli_prints_the_verdict_as_json_and_exits_nonzero_on_failure():
    rc, out = cli("verify", VECADD, str(BAD / "fallback.py"), "--device", "cpu")
    assert rc == 1 and out["verdict"] == "torch_fallback"
    assert out["static_findings"] == [{"function": "run", "call": "torch.add", "line": 7}]


# --- comparison and the static check (in process) ----------------------------------------------

def test_nan_where_reference_is_finite_fails_even_with_loose_tolerance():
    (check,) = compare_outputs(torch.tensor([1.0, float("nan")]), torch.tensor([1.0, 2.0]), atol=10, rtol=10)
    assert check.nan == 1 and "1 NaN" in check.problem


def test_non_contiguous_output_fails_when_the_reference_is_contiguous():
    want = torch.arange(6.0).reshape(2, 3)
    column_major = want.t().contiguous().t()  # equal values, strides (1, 2)
    (check,) = compare_outputs(column_major, want, atol=0, rtol=0)
    assert check.problem == "output 0 has strides (1, 2), expected contiguous (3, 1)"


def _findings(src: str) -> list[str]:
    return [f.sentence() for f in static_check.torch_fallbacks(ast.parse(src))]


def test_static_check_allows_allocation_views_and_triton_device_code():
    src = (
        "import math\nimport torch\nimport triton\nimport triton.language as tl\n"
        "@triton.jit\ndef k(x):\n    tl.store(x, tl.sum(tl.load(x), 0))\n"
        "def run(x):\n    out = torch.empty_like(x)\n    y = x.view(-1).contiguous()\n"
        "    z = torch.zeros(x.shape[0], device=x.device, dtype=torch.float32)\n"
        "    k[(triton.cdiv(y.numel(), 128),)](out)\n    s = math.sqrt(y.stride(0))\n    return out.reshape(x.shape)\n"
    )
    assert _findings(src) == []


def test_static_check_finds_aliases_methods_matmul_and_torch_modules():
    src = (
        "import torch\nimport torch.nn.functional as F\nfrom torch import nn\n"
        "class ModelNew(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.proj = nn.Linear(4, 4)\n"
        "    def forward(self, x):\n        return self.proj(x)\n"
        "def run(x, w):\n    y = F.softmax(x, -1)\n    s = x.sum(dim=1)\n    h = x.to(torch.float32)\n    return y @ w\n"
    )
    assert _findings(src) == [
        "forward() calls self.proj (torch.nn.Linear) at line 9",
        "run() calls torch.nn.functional.softmax at line 11",
        "run() calls x.sum at line 12",
        "run() calls x.to at line 13",
        "run() calls @ (matmul) at line 14",
    ]


# --- bench, profile, ceilings, npu on a CPU host ------------------------------------------------

def test_bench_on_cpu_times_candidate_and_eager_and_marks_ceilings_unmeasured():
    report = bench(VECADD, None, BenchOptions(device="cpu", compile=False, rep_ms=5, warmup_ms=1))
    (point,) = report.points
    assert point.size == "small" and point.bytes == 12000 and point.flops == 1000
    assert set(point.impls) == {"candidate", "eager"}
    cand = point.impls["candidate"]
    assert cand.status == "ok" and cand.method == "perf_counter" and cand.p20_ms <= cand.median_ms <= cand.p80_ms
    # GB/s from cost() bytes and the median (rounded to 3 decimals: a loaded CPU can make it 0.0)
    assert cand.roofline["gbps"] == round(12000 / (cand.median_ms * 1e-3) / 1e9, 3)
    assert cand.roofline["pct_of_bound_ceiling"] is None
    assert report.ceilings["measured"] is False and "interpreter" in report.notes[0]


@pytest.mark.slow
def test_the_torch_compile_reference_is_trusted_code_inside_the_candidates_sandbox():
    """Found on the H200 (two sessions running): inductor's generated wrapper, in its cache folder,
    was the deciding frame when the torch.compile reference created that folder or probed for
    nvcc, so every torch.compile timing became a sandbox_violation blamed on the candidate."""
    report = bench(VECADD, str(FIX / "vecadd" / "baseline.py"),
                   BenchOptions(device="cpu", compile=True, rep_ms=2, warmup_ms=1))
    (point,) = report.points
    assert point.impls["candidate"].status == "ok"
    compiled = point.impls["compile"]
    assert compiled.status == "ok" and compiled.median_ms > 0, compiled.cause


def test_bench_times_the_references_outside_the_candidates_sandbox_and_the_candidate_inside(tmp_path):
    """Found on the H200 (2026-12-02): inside the candidate's audit hook, inductor's wrapper paid
    for every audited event (sub-0.1 ms references doubled) and the inductor it loaded changed the
    candidates' ptxas. The references are the task's own code: they get a child of their own."""
    task = tmp_path / "vecadd"
    shutil.copytree(VECADD, task)
    src = (task / "task.py").read_text().replace(
        "    return x + y", "    import os, time\n    if 'sandbox' in os.getcwd():\n        time.sleep(0.05)\n    return x + y")
    (task / "task.py").write_text(src)
    cand = (FIX / "vecadd" / "baseline.py").read_text().replace(
        "    out = torch.empty_like(x)", "    import os\n    assert 'sandbox' in os.getcwd()\n    out = torch.empty_like(x)")
    (tmp_path / "cand.py").write_text(cand)
    report = bench(task, str(tmp_path / "cand.py"), BenchOptions(device="cpu", compile=False, rep_ms=2, warmup_ms=1))
    (point,) = report.points
    assert point.impls["candidate"].status == "ok", point.impls["candidate"].cause
    # the reference sleeps 50 ms a call inside a sandbox (the candidate's child still calls it to
    # check the timed outputs); its own timing did not
    assert point.impls["eager"].status == "ok" and point.impls["eager"].median_ms < 20


@pytest.mark.slow
def test_bench_carries_on_with_the_references_after_the_candidate_kills_its_child():
    report = bench(VECADD, str(BAD / "segfault.py"),
                   BenchOptions(device="cpu", compile=False, rep_ms=2, warmup_ms=1, sizes=["small", "ragged"]))
    small, ragged = report.points
    assert small.impls["candidate"].status == "crash" and "SIGSEGV" in small.impls["candidate"].cause
    assert ragged.impls["candidate"].status == "skipped"
    assert small.impls["eager"].status == ragged.impls["eager"].status == "ok"
    assert small.impls["eager"].median_ms > 0 and small.candidate_vs_eager is None


def test_bench_and_profile_on_cuda_fail_with_one_sentence_on_a_cpu_host():
    if torch.cuda.is_available():
        pytest.skip("this host has a GPU")
    rc, out = cli("bench", VECADD, "--device", "cuda")
    assert rc == 1 and out == {"error": "--device cuda was asked for but torch sees no CUDA GPU; use --device cpu here."}


def test_profile_on_cpu_keeps_timings_and_says_why_there_are_no_counters():
    rc, out = cli("profile", VECADD, "--size", "small", "--device", "cpu")
    assert rc == 0 and out["profiler"] == "none"
    assert out["counters"]["available"] is False and "no GPU or NPU" in out["counters"]["reason"]
    assert out["timing"]["status"] == "ok" and out["timing"]["median_ms"] > 0


def test_npu_without_torch_npu_fails_naming_the_missing_package():
    with pytest.raises(RunnerError, match="needs torch_npu"):
        resolve_device("npu")


def test_msprof_command_follows_msopprof_usage():
    cmd = msprof_command("msprof", ["add_kernel", "mul_kernel"], Path("/tmp/o"))
    assert cmd == ["msprof", "op", "--output=/tmp/o", "--warm-up=5", "--aic-metrics=Default",
                   "--kernel-name=add_kernel|mul_kernel", "--launch-count=2"]


def test_ncu_command_profiles_only_our_kernels_inside_the_nvtx_range():
    cmd = ncu_command("ncu", ["add_kernel"], Path("/tmp/log.csv"))
    assert cmd[cmd.index("--clock-control") + 1] == "none"
    assert cmd[cmd.index("--kernel-name") + 1] == "regex:^(add_kernel)"
    assert cmd[cmd.index("--nvtx-include") + 1] == "passwise_profile/"
    assert "launch__registers_per_thread" in cmd[cmd.index("--metrics") + 1]


def test_ncu_raw_csv_is_parsed_skipping_the_units_row_and_app_output():
    text = "\n".join([
        "==PROF== Connected to process 42",
        "hello from the app",
        '"ID","Kernel Name","Grid Size","Block Size","gpu__time_duration.sum","dram__throughput.avg.pct_of_peak_sustained_elapsed",'
        '"launch__registers_per_thread","smsp__sass_inst_executed_op_local_ld.sum",'
        '"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",'
        '"smsp__average_warps_issue_stalled_wait_per_issue_active.ratio"',
        '"","","","","nsecond","%","register/thread","inst","ratio","ratio"',
        '"0","add_kernel","(64, 1, 1)","(128, 1, 1)","46,880","82.98","16","0","86.19","2.29"',
    ])
    (k,) = parse_ncu_csv(text)
    assert (k.name, k.grid, k.duration_ns, k.dram_pct, k.registers_per_thread, k.local_loads) == (
        "add_kernel", "(64, 1, 1)", 46880.0, 82.98, 16.0, 0.0)
    assert [s["reason"] for s in k.stalls] == ["long_scoreboard", "wait"]


def test_ceilings_cache_goes_where_asked_and_round_trips(tmp_path, monkeypatch):
    monkeypatch.setenv("PASSWISE_RUNNER_CACHE", str(tmp_path))
    path = cache_path("NVIDIA H200")
    assert path == tmp_path / "ceilings-nvidia-h200.json"
    assert cache_path("NVIDIA H200", str(tmp_path / "c.json")) == tmp_path / "c.json"
    ceil = Ceilings("NVIDIA H200", True, copy_gbps=4000.0, matmul_tflops={"float16": 700.0, "tf32": 350.0})
    save(ceil, path)
    assert load_cached(path) == ceil and ceil.compute_tflops("float32") == 350.0


def test_roofline_calls_a_low_intensity_kernel_memory_bound():
    ceil = Ceilings("gpu", True, copy_gbps=4000.0, matmul_tflops={"float16": 700.0})
    p = place(ms=0.1, nbytes=200e6, flops=50e6, dtype="float16", ceilings=ceil)
    assert p.bound == "memory" and p.gbps == 2000.0 and p.pct_of_bound_ceiling == 50.0


@pytest.mark.slow
def test_suite_on_cpu_writes_json_and_a_table(tmp_path):
    kernels = tmp_path / "kernels"
    shutil.copytree(FIX / "vecadd", kernels / "vecadd")
    out = tmp_path / "suite.json"
    proc = subprocess.run([sys.executable, "-m", "diagnose.runner", "suite", "--device", "cpu", "--no-compile",
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**__import__("os").environ, "PASSWISE_KERNELS": str(kernels)})
    assert proc.returncode == 0, proc.stderr
    assert "vecadd" in proc.stdout and "geomean baseline/torch.compile" in proc.stdout
    doc = json.loads(out.read_text())
    (task,) = doc["tasks"]
    assert task["verdict"] == "pass" and task["points"][0]["impls"]["candidate"]["status"] == "ok"
