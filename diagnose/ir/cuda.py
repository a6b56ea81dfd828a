"""CUDA IR capture: what a task's launcher really compiles, pass by pass, down to SASS.

The kernel file is untrusted, so launching and compiling happen in a child process
(cuda_child.py) under a timeout; this side turns its report into an IRCapture.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from .dumps import split_dump
from .errors import IRCaptureError
from .machine import disassemble, parse_sass, run_ptxas
from .model import CompileFailure, IRCapture, KernelIR, Specialization, Stage
from .signature import diff_stages, signature_of

CHILD = Path(__file__).with_name("cuda_child.py")
# Which pass manager a dump header belongs to: the first pass of each make_* function.
PIPELINE_STARTS = {"inline": "ttir", "convert-triton-to-tritongpu": "ttgir",
                   "convert-scf-to-cf": "llir"}


def cuda_python() -> str:
    """Interpreter of the CUDA compiler environment: PASSWISE_CUDA_PYTHON or this one."""
    return os.environ.get("PASSWISE_CUDA_PYTHON") or sys.executable


def resolve_task(path: str | Path, candidate: str | Path | None) -> tuple[Path | None, Path]:
    """(task folder or None, kernel file) for a task folder or a kernel file."""
    path = Path(path)
    if path.is_dir():
        kernel = Path(candidate) if candidate else path / "baseline.py"
        task_dir: Path | None = path
    else:
        kernel = Path(candidate) if candidate else path
        task_dir = path.parent if (path.parent / "task.py").exists() else None
    if not kernel.exists():
        raise IRCaptureError(f"Kernel file {kernel} does not exist; pass a task folder with "
                             "baseline.py or the path of a kernel file.")
    return task_dir, kernel.resolve()


def capture_cuda(task: str | Path, candidate: str | Path | None = None, size: str = "small",
                 timeout: float = 300, arch: int = 90, python: str | None = None,
                 work_dir: str | Path | None = None, max_configs: int = 1) -> IRCapture:
    """Capture every distinct kernel launch of the task's `run` compiled for sm_<arch>."""
    task_dir, kernel = resolve_task(task, candidate)
    if work_dir:
        return _capture_into(Path(work_dir), task_dir, kernel, size, timeout, arch, python,
                             max_configs)
    # the dumps are read into the capture, so a folder of our own goes when we are done
    # (a pass-by-pass dump is ~16 MB a launch: left in /tmp, every diagnosis would leak it)
    out = Path(tempfile.mkdtemp(prefix="passwise-ir-"))
    try:
        return _capture_into(out, task_dir, kernel, size, timeout, arch, python, max_configs)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def _capture_into(out: Path, task_dir: Path | None, kernel: Path, size: str, timeout: float,
                  arch: int, python: str | None, max_configs: int) -> IRCapture:
    out.mkdir(parents=True, exist_ok=True)
    cmd = [python or cuda_python(), str(CHILD), "--kernel", str(kernel), "--size", size,
           "--out-dir", str(out), "--arch", str(arch), "--max-configs", str(max_configs)]
    if task_dir is not None:
        cmd += ["--task-dir", str(task_dir.resolve())]
    report = _run_child(cmd, out, timeout)
    capture = IRCapture(backend="cuda", target=f"sm_{arch}", source=str(kernel),
                        compiler_version=f"triton {report['triton_version']}",
                        commands=[f"MLIR_ENABLE_DUMP=1 TRITON_ALWAYS_COMPILE=1 {shlex.join(cmd)}"])
    if report["setup_error"]:
        capture.failures.append(CompileFailure(kernel=kernel.name, phase="launcher",
                                               message=report["setup_error"]))
    capture.intermediates = intermediates(report.get("launch_log") or [], report.get("io"))
    capture.rereads = rereads(report.get("launch_log") or [], report.get("io"))
    capture.launch_counts = dict(Counter(k["kernel"] for k in report.get("launch_log") or []))
    inputs = (report.get("io") or {}).get("input_bytes")
    capture.host_ops = [op | {"input_bytes": inputs} for op in report.get("host_ops") or []]
    tool_dir = Path(report["tool_dir"])
    for launch in report["launches"]:
        kir = _kernel_ir(launch, tool_dir, capture)
        capture.kernels.append(kir)
        if kir.failure:
            capture.failures.append(kir.failure)
    return capture


def intermediates(launch_log: list[dict], io: dict | None) -> list[dict]:
    """Buffers handed from one launch to a later one that the caller never sees: allocated
    by the launcher (not an input) and not returned. Each goes to global memory and back."""
    if not io or len(launch_log) < 2:
        return []
    outside = set(io.get("inputs") or []) | set(io.get("outputs") or [])
    found, seen = [], set()
    for i, first in enumerate(launch_log):
        for arg, address in first["tensors"].items():
            if address in outside or address in seen:
                continue
            later = next(((nxt, a) for nxt in launch_log[i + 1:]
                          for a, addr in nxt["tensors"].items() if addr == address), None)
            # the same slot of the same kernel again is a workspace, not a hand-over
            if later is not None and (later[0]["kernel"], later[1]) != (first["kernel"], arg):
                seen.add(address)
                found.append({"producer": first["kernel"], "producer_arg": arg,
                              "consumer": later[0]["kernel"], "consumer_arg": later[1],
                              "bytes": (first.get("bytes") or {}).get(arg),
                              "input_bytes": io.get("input_bytes")})
    return found


def rereads(launch_log: list[dict], io: dict | None) -> list[dict]:
    """Inputs of the call that two different kernels receive: each launch reads the tensor
    from global memory again, where one fused kernel would read it once."""
    inputs = set((io or {}).get("inputs") or [])
    by_address: dict[int, list[tuple[str, str]]] = {}
    sizes: dict[int, int] = {}  # every buffer the launches touch: what the call moves at least
    for launch in launch_log:
        for arg, address in launch["tensors"].items():
            size = (launch.get("bytes") or {}).get(arg)
            if size:
                sizes[address] = max(sizes.get(address, 0), size)
            if address in inputs:
                by_address.setdefault(address, []).append((launch["kernel"], arg))
    found, moved = [], sum(sizes.values()) or None
    for address, uses in by_address.items():
        kernels = list(dict.fromkeys(k for k, _ in uses))
        if len(kernels) >= 2:
            found.append({"kernels": kernels, "args": [a for _, a in uses][:4],
                          "bytes": sizes.get(address), "call_bytes": moved})
    return found


def _run_child(cmd: list[str], out: Path, timeout: float) -> dict:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise IRCaptureError(f"IR capture of {cmd[3]} ran past {timeout:.0f} s; raise the "
                             "timeout or check the launcher for an endless loop.") from exc
    except FileNotFoundError as exc:
        raise IRCaptureError(f"Interpreter {cmd[0]} not found; set PASSWISE_CUDA_PYTHON to a "
                             "Python that has torch and triton.") from exc
    report_file = out / "report.json"
    if not report_file.exists():
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise IRCaptureError(f"IR capture child exited {proc.returncode} without a report "
                             f"({last}); check that {cmd[0]} can import torch and triton.")
    return json.loads(report_file.read_text())


def _kernel_ir(launch: dict, tool_dir: Path, capture: IRCapture) -> KernelIR:
    spec = Specialization(signature=launch["signature"], constexprs=launch["constexprs"],
                          attrs=launch["attrs"], options=launch["options"],
                          autotune_configs=launch["autotune_configs"], grid=launch["grid"])
    kir = KernelIR(kernel=launch["kernel"], file=launch["file"], line=launch["line"],
                   specialization=spec)
    dump = Path(launch["dump_file"]).read_text(errors="replace")
    kir.stages = _pipeline_stages(dump)
    if launch["error"]:
        kir.failure = CompileFailure(kernel=kir.kernel, phase=_failed_pipeline(kir.stages),
                                     message=launch["error"])
    else:
        _add_machine_stages(kir, launch["asm_files"], tool_dir, capture)
    kir.signatures = [signature_of(s) for s in kir.stages]
    kir.diffs = diff_stages(kir.stages, kir.signatures)
    return kir


def _pipeline_stages(dump: str) -> list[Stage]:
    stages = split_dump(dump)
    pipeline = "ttir"
    for stage in stages:
        pipeline = PIPELINE_STARTS.get(stage.pass_arg, pipeline) if stage.when == "before" \
            else pipeline
        stage.pipeline = pipeline
    return stages


def _failed_pipeline(stages: list[Stage]) -> str:
    return f"{stages[-1].pipeline} ({stages[-1].pass_arg})" if stages else "frontend (ast-to-ttir)"


def _add_machine_stages(kir: KernelIR, asm_files: dict[str, str], tool_dir: Path,
                        capture: IRCapture) -> None:
    """Append llir, ptx and sass as final stages and read ptxas / SASS facts."""
    finals = [("llir", "translate-to-llvm-ir+llvm-opt"), ("ptx", "llvm-nvptx-codegen")]
    for name, by in finals:
        if name in asm_files:
            kir.stages.append(Stage(index=len(kir.stages), name=name, pass_arg=by,
                                    when="final", text=Path(asm_files[name]).read_text(),
                                    pipeline=name))
    if "ptx" in asm_files:
        kir.ptxas = run_ptxas(tool_dir, Path(asm_files["ptx"]))
        capture.commands.append(kir.ptxas.command)
    if "cubin" in asm_files:
        sass, command = disassemble(tool_dir, Path(asm_files["cubin"]))
        if sass:
            kir.sass = parse_sass(sass)
            kir.sass.command = command
            capture.commands.append(command)
            kir.stages.append(Stage(index=len(kir.stages), name="sass", pass_arg="ptxas",
                                    when="final", text=sass, pipeline="sass"))
