"""Wiring a run: its settings (run.json), the ladder as a diagnoser, the chosen proposer."""

from __future__ import annotations

import os
import platform
from collections.abc import Callable
from pathlib import Path
from typing import Any

from diagnose.ladder import Options, diagnose, make_context
from diagnose.runner.tasks import find_task
from diagnose.target import resolve_target

from .noise import MIN_GAIN
from .runs import RunError, RunRecord


def new_run(home: Path, task: str, candidate: str | None, *, backend: str, device: str,
            proposer: str, executor: str, rounds: int, size: str | None, repeats: int | None,
            llm: dict | None = None) -> RunRecord:
    """Create the run folder for TASK (a name under kernels/ or a task folder)."""
    target = resolve_target(task, candidate)
    if target.kind != "task" or target.task_dir is None:
        raise RunError(f"{task} is not a task folder; optimize needs a task (task.py with sizes "
                       "and a reference) to verify against, see docs/task-format.md.")
    spec = find_task(str(target.task_dir))
    size = size or ("small" if device == "cpu" and "small" in spec.sizes else spec.sizes[-1])
    if size not in spec.sizes:
        raise RunError(f"Task {spec.name} has no size {size!r}; it has {', '.join(spec.sizes)}.")
    settings = {
        "task_path": str(target.task_dir), "input_path": str(target.kernel), "backend": backend,
        "device": device, "proposer": proposer, "llm": llm, "executor": executor, "rounds": rounds,
        "size": size, "dtype": spec.dtypes[0],
        "noise": {"model": "one-sided Student t bound on the geometric-mean ratio of interleaved "
                           "repeats, sd floored by the runner's p20..p80 spread (docs/runs.md)",
                  "repeats": repeats or (2 if device == "cpu" else 3), "confidence": 0.95,
                  "min_gain": MIN_GAIN},
        "versions": _versions(),
        # --all pins each worker to one GPU; the record says which one ran this run
        "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES")}
    return RunRecord.create(home, spec.name, target.kernel.read_text(encoding="utf-8"), settings)


def _versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for mod in ("triton", "torch"):
        try:
            out[mod] = __import__(mod).__version__
        except Exception:  # noqa: BLE001 - a version is informative, never required
            out[mod] = "absent"
    try:
        from importlib.metadata import version
        out["passwise"] = version("passwise")
    except Exception:  # noqa: BLE001
        out["passwise"] = "unknown"
    return out


def make_diagnoser(task_dir: Path, backend: str, max_tier: int, size: str,
                   open_kb: Callable[[], tuple[Any, Any]] | None, python_cuda: str | None = None,
                   home: Path | None = None) -> Callable[[Path, Path | None], dict]:
    """(kernel file, parent bench JSON or None) -> the Diagnosis JSON of that kernel."""
    def run(kernel: Path, bench_json: Path | None) -> dict:
        target = resolve_target(str(task_dir), str(kernel))
        options = Options(max_tier=max_tier, runner_json=bench_json, size=size,
                          python_cuda=python_cuda, home=home)
        return diagnose(make_context(target, backend, options, open_kb=open_kb)).to_dict()
    return run
