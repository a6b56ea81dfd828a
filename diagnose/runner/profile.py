"""profile: hardware counters of one candidate launch (Nsight Compute on CUDA, msprof op on Ascend).

Where the profiler is missing or refused (no counter permission), the answer still carries the
candidate's timing and says why the counters are absent.
"""

from __future__ import annotations

import ast
import csv
import io
import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .bench import BenchOptions, bench_items
from .child import WorkItem
from .errors import RunnerError
from .procs import run_items
from .tasks import CandidateSpec, find_task, read_candidate
from .verify import interpret_env

NVTX_RANGE = "passwise_profile"  # launch_once wraps the profiled call in this range
NCU_METRICS = (
    "gpu__time_duration.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__warps_active.avg.pct_of_peak_sustained_active",      # achieved occupancy
    "launch__registers_per_thread",
    "launch__occupancy_limit_registers",
    "launch__shared_mem_per_block_static",
    "launch__shared_mem_per_block_dynamic",
    "smsp__sass_inst_executed_op_local_ld.sum",               # register spills read back
    "smsp__sass_inst_executed_op_local_st.sum",               # register spills written
)
STALL_MARK = "issue_stalled_"


@dataclass
class ProfileOptions:
    size: str
    dtype: str | None = None
    device: str = "cuda"
    timeout_s: float = 300.0


@dataclass
class KernelCounters:
    """One profiled kernel launch, read from ncu's raw CSV page."""

    name: str
    grid: str | None
    block: str | None
    duration_ns: float | None
    dram_pct: float | None
    sm_pct: float | None
    achieved_occupancy_pct: float | None
    registers_per_thread: float | None
    local_loads: float | None          # > 0 means register spills
    local_stores: float | None
    stalls: list[dict] = field(default_factory=list)   # [{reason, per_issue}], largest first
    raw: dict = field(default_factory=dict)


@dataclass
class ProfilerResult:
    available: bool
    reason: str | None = None
    command: list[str] = field(default_factory=list)
    kernels: list[KernelCounters] = field(default_factory=list)
    files: list[str] = field(default_factory=list)       # msprof output files
    verified_on_hardware: bool = True


@dataclass
class ProfileReport:
    task: str
    candidate: str
    size: str
    dtype: str | None
    device: str
    profiler: str                 # ncu | msprof | none
    counters: ProfilerResult
    timing: dict
    device_info: dict

    def to_json(self) -> dict:
        return asdict(self)


def triton_kernel_names(cand: CandidateSpec) -> list[str]:
    """Names of the candidate's @triton.jit functions: the kernel names the profiler sees."""
    names = []
    for node in ast.walk(cand.tree):
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                src = ast.unparse(dec)
                if "jit" in src or "autotune" in src or "heuristics" in src:
                    names.append(node.name)
                    break
    return names


def ncu_command(ncu: str, kernels: list[str], log_file: Path) -> list[str]:
    """ncu wrapper: real clocks, child processes, only our kernels inside the NVTX range, raw CSV."""
    cmd = [ncu, "--clock-control", "none", "--target-processes", "all", "--nvtx",
           "--nvtx-include", f"{NVTX_RANGE}/", "--section", "WarpStateStats",
           "--metrics", ",".join(NCU_METRICS), "--csv", "--page", "raw", "--log-file", str(log_file)]
    if kernels:
        cmd += ["--kernel-name", "regex:^(" + "|".join(kernels) + ")"]
    return cmd


def msprof_command(msprof: str, kernels: list[str], out_dir: Path) -> list[str]:
    """msprof op wrapper (msOpProf on-board mode): our kernels, one launch each, default metrics."""
    cmd = [msprof, "op", f"--output={out_dir}", "--warm-up=5", "--aic-metrics=Default"]
    if kernels:
        cmd += [f"--kernel-name={'|'.join(kernels)}", f"--launch-count={len(kernels)}"]
    return cmd


def profile(task_arg: str, candidate_arg: str | None, opts: ProfileOptions) -> ProfileReport:
    task = find_task(task_arg)
    if opts.size not in task.sizes:
        raise RunnerError(f"task {task.name} has no size {opts.size}; it has {', '.join(task.sizes)}.")
    cand_path = candidate_arg or (str(task.baseline) if task.baseline else None)
    if not cand_path:
        raise RunnerError(f"task {task.name} has no baseline.py; pass a CANDIDATE file to profile.")
    cand = read_candidate(cand_path, task)
    dtype = opts.dtype or task.dtypes[0]
    timing_run = run_items(
        bench_items(task, str(cand.path), cand.entry, [opts.size], [dtype], BenchOptions(compile=False)),
        opts.device, opts.timeout_s, skip=lambda a, b: True, env=interpret_env(opts.device))
    cand_timing = next((o for o in timing_run.outcomes if o.item.impl == "candidate"), None)
    timing = {"status": cand_timing.status, "cause": cand_timing.cause, **cand_timing.result.get("timing", {})} if cand_timing else {}
    launch = WorkItem(kind="launch", task=str(task.path), task_kind=task.kind, candidate=str(cand.path),
                      entry=cand.entry, size=opts.size, dtype=None if task.kind == "kernelbench" else dtype)
    counters, tool = _counters(opts.device, launch, triton_kernel_names(cand), opts.timeout_s)
    return ProfileReport(task.name, str(cand.path), opts.size, dtype, opts.device, tool, counters,
                         timing, timing_run.device_info)


def _counters(device: str, launch: WorkItem, kernels: list[str], timeout_s: float) -> tuple[ProfilerResult, str]:
    if device == "cuda":
        return run_ncu(launch, kernels, timeout_s), "ncu"
    if device == "npu":
        return run_msprof(launch, kernels, timeout_s), "msprof"
    return ProfilerResult(False, "no GPU or NPU on this host: counters need ncu (CUDA) or msprof (Ascend); "
                          "timings only"), "none"


def run_ncu(launch: WorkItem, kernels: list[str], timeout_s: float) -> ProfilerResult:
    ncu = shutil.which("ncu")
    if not ncu:
        return ProfilerResult(False, "ncu is not on PATH; install Nsight Compute or add it to PATH; timings only")
    with tempfile.TemporaryDirectory(prefix="passwise-ncu-") as tmp:
        log = Path(tmp) / "ncu.csv"
        cmd = ncu_command(ncu, kernels, log)
        run = run_items([launch], "cuda", timeout_s, skip=lambda a, b: True, wrapper=cmd)
        text = log.read_text(errors="replace") if log.exists() else ""
    result = ProfilerResult(True, command=cmd)
    result.kernels = parse_ncu_csv(text)
    if not result.kernels:
        result.available = False
        result.reason = _ncu_failure(text, run.outcomes[0].cause)
    return result


def _ncu_failure(log: str, cause: str | None) -> str:
    if "ERR_NVGPUCTRPERM" in log:
        return ("ncu may not read the GPU performance counters here (ERR_NVGPUCTRPERM); run as root or set "
                "NVreg_RestrictProfilingToAdminUsers=0; timings only")
    errors = [ln.strip() for ln in log.splitlines() if "==ERROR==" in ln or "==WARNING==" in ln]
    if errors:
        return f"ncu profiled no kernel: {errors[0][:300]}; timings only"
    return f"ncu profiled no kernel ({cause or 'no matching launch in the NVTX range'}); timings only"


def parse_ncu_csv(text: str) -> list[KernelCounters]:
    """Rows of `ncu --csv --page raw`: a header, a units row, then one row per profiled launch."""
    lines = [ln for ln in text.splitlines() if ln.startswith('"')]
    if not lines:
        return []
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    header, body = rows[0], rows[1:]
    if body and not body[0][0].strip():  # units row: its ID cell is empty
        body = body[1:]
    return [_kernel(dict(zip(header, row, strict=False))) for row in body if row and row[0].strip()]


def _kernel(row: dict[str, str]) -> KernelCounters:
    stalls = sorted(
        ({"reason": k.split(STALL_MARK, 1)[1].split("_per_")[0], "per_issue": v}
         for k, v in ((k, _num(v)) for k, v in row.items() if STALL_MARK in k and "not_issued" not in k)
         if v is not None),
        key=lambda s: -s["per_issue"])
    return KernelCounters(
        name=row.get("Kernel Name", ""), grid=row.get("Grid Size"), block=row.get("Block Size"),
        duration_ns=_num(row.get("gpu__time_duration.sum")),
        dram_pct=_num(row.get("dram__throughput.avg.pct_of_peak_sustained_elapsed")),
        sm_pct=_num(row.get("sm__throughput.avg.pct_of_peak_sustained_elapsed")),
        achieved_occupancy_pct=_num(row.get("sm__warps_active.avg.pct_of_peak_sustained_active")),
        registers_per_thread=_num(row.get("launch__registers_per_thread")),
        local_loads=_num(row.get("smsp__sass_inst_executed_op_local_ld.sum")),
        local_stores=_num(row.get("smsp__sass_inst_executed_op_local_st.sum")),
        stalls=stalls[:8], raw={k: v for k, v in row.items() if k in NCU_METRICS})


def _num(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def run_msprof(launch: WorkItem, kernels: list[str], timeout_s: float) -> ProfilerResult:
    """msprof op around one launch (no warm-up launches: msprof's own --warm-up replays the kernel)."""
    msprof = shutil.which("msprof")
    launch.launches = 0
    if not msprof:
        return ProfilerResult(False, "msprof is not on PATH; source the CANN toolkit's set_env.sh; timings only",
                              verified_on_hardware=False)
    out_dir = Path(tempfile.mkdtemp(prefix="passwise-msprof-"))
    cmd = msprof_command(msprof, kernels, out_dir)
    run = run_items([launch], "npu", timeout_s, skip=lambda a, b: True, wrapper=cmd)
    files = sorted(str(p) for p in out_dir.rglob("*.csv"))
    result = ProfilerResult(bool(files), command=cmd, files=files, verified_on_hardware=False)
    if files:
        result.kernels = [KernelCounters(name=Path(f).stem, grid=None, block=None, duration_ns=None, dram_pct=None,
                                         sm_pct=None, achieved_occupancy_pct=None, registers_per_thread=None,
                                         local_loads=None, local_stores=None, raw=_first_row(Path(f)))
                          for f in files if Path(f).name.startswith("OpBasicInfo")]
    else:
        result.reason = f"msprof op wrote no CSV under {out_dir} ({run.outcomes[0].cause or 'see its log'}); timings only"
    return result


def _first_row(path: Path) -> dict:
    with open(path, newline="") as f:
        return next(csv.DictReader(f), {})
