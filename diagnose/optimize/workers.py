"""`--all`: one worker process per visible GPU, each pinned with CUDA_VISIBLE_DEVICES, taking
the next task from a shared queue; then a summary table of the runs."""

from __future__ import annotations

import os
import queue
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path


def visible_gpus(flag: str | None = None) -> list[str]:
    """--gpus, else CUDA_VISIBLE_DEVICES, else every GPU torch sees; [] on a machine without."""
    if flag:
        return [g.strip() for g in flag.split(",") if g.strip()]
    env = os.environ.get("CUDA_VISIBLE_DEVICES")
    if env is not None:
        return [g.strip() for g in env.split(",") if g.strip() and g.strip() != "-1"]
    try:
        import torch
        return [str(i) for i in range(torch.cuda.device_count())]
    except Exception:  # noqa: BLE001 - no torch, no GPUs
        return []


@dataclass
class Job:
    name: str
    argv: list[str]
    gpu: str = ""
    returncode: int | None = None
    stderr_tail: list[str] = field(default_factory=list)


def run_pinned(jobs: list[Job], gpus: list[str], cwd: Path | None = None,
               echo=None) -> list[Job]:
    """Run jobs with one worker per GPU (one at a time on each); with no GPU, one worker and
    CUDA_VISIBLE_DEVICES unset. Each job's stderr lines are passed to `echo` as they come."""
    slots = gpus or [""]
    todo: queue.Queue[Job] = queue.Queue()
    for job in jobs:
        todo.put(job)

    def worker(gpu: str) -> None:
        while True:
            try:
                job = todo.get_nowait()
            except queue.Empty:
                return
            env = dict(os.environ)
            if gpu:
                env["CUDA_VISIBLE_DEVICES"] = gpu
            job.gpu = gpu
            proc = subprocess.Popen(job.argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True)
            for line in proc.stderr:
                job.stderr_tail = (job.stderr_tail + [line.rstrip()])[-20:]
                if echo:
                    echo(f"[gpu {gpu or '-'}] {line.rstrip()}")
            job.returncode = proc.wait()

    threads = [threading.Thread(target=worker, args=(g,)) for g in slots]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return jobs


def summary_table(summaries: list[dict]) -> str:
    head = (f"{'task':<22} {'status':<9} {'rounds':>6} {'accepted':<10} {'best':>4} {'x input':>8} "
            f"{'input ms':>10} {'best ms':>10} {'compile ms':>10} {'x compile':>9}")
    lines = [head, "-" * len(head)]
    for s in summaries:
        best, comp = s.get("best_ms"), s.get("compile_ms")
        vs = comp / best if best and comp else None
        lines.append(f"{s['target']:<22} {s['status']:<9} {s['rounds_done']:>6} "
                     f"{','.join(map(str, s['accepted'])) or '-':<10} {s['best_round']:>4} "
                     f"{s['best_vs_input']:>7.2f}x {_f(s.get('input_ms')):>10} {_f(best):>10} "
                     f"{_f(comp):>10} {_f(vs, '.2f'):>9}")
    if any(s.get("interpreter_only") for s in summaries):
        lines.append("timings ran in the Triton interpreter (cpu): not kernel timings")
    return "\n".join(lines)


def _f(x: float | None, spec: str = ".4f") -> str:
    return format(x, spec) if x is not None else "-"
