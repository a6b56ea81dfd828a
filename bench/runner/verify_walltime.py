"""Wall and CPU time of `verify` over the suite's baselines: the runner before the gate against this
checkout's, as CI runs it (cpu, size small, 2 seeds, every non-bf16 dtype), one task after another,
the two runners alternating which goes first so load on a shared machine falls on both alike.

    python bench/runner/verify_walltime.py --before DIR_WITH_OLD_diagnose --out results.json [--tasks a,b]

DIR_WITH_OLD_diagnose holds the old runner's `diagnose/` package (e.g. `git archive 16d3cd2 diagnose`).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_once(runner_dir: Path, task: str) -> dict:
    """One verify through the CLI; wall seconds, CPU seconds of the whole process tree, verdict."""
    cmd = [sys.executable, "-m", "diagnose.runner", "verify", str(ROOT / "kernels" / task),
           str(ROOT / "kernels" / task / "baseline.py"), "--device", "cpu", "--sizes", "small", "--seeds", "2"]
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": "", "PYTHONPATH": str(runner_dir)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=runner_dir, env=env, capture_output=True, text=True, timeout=600)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        verdict = json.loads(proc.stdout)["verdict"]
    except (ValueError, KeyError):
        verdict = f"no JSON (exit {proc.returncode})"
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "verdict": verdict, "load1": os.getloadavg()[0]}


def geomean(xs: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--tasks")
    args = ap.parse_args()
    tasks = args.tasks.split(",") if args.tasks else sorted(p.parent.name for p in (ROOT / "kernels").glob("*/task.py"))
    rows = []
    for i, task in enumerate(tasks):
        order = [("before", args.before), ("after", ROOT)]
        if i % 2:
            order.reverse()
        row = {"task": task}
        for name, where in order:
            row[name] = run_once(where, task)
        rows.append(row)
        print(f"{task:<24} before {row['before']['wall_s']:>6} s ({row['before']['cpu_s']} cpu) "
              f"after {row['after']['wall_s']:>6} s ({row['after']['cpu_s']} cpu)  {row['after']['verdict']}  "
              f"load {row['after']['load1']:.1f}", flush=True)
    summary = {}
    for metric in ("wall_s", "cpu_s"):
        b = sum(r["before"][metric] for r in rows)
        a = sum(r["after"][metric] for r in rows)
        summary[metric] = {"before_total": round(b, 1), "after_total": round(a, 1), "ratio_total": round(a / b, 3),
                           "ratio_geomean": round(geomean([r["after"][metric] / r["before"][metric] for r in rows]), 3)}
    summary["after_pass"] = sum(r["after"]["verdict"] == "pass" for r in rows)
    summary["before_pass"] = sum(r["before"]["verdict"] == "pass" for r in rows)
    summary["tasks"] = len(rows)
    import torch
    import triton

    doc = {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "machine": platform.processor() or platform.machine(),
           "cpus": os.cpu_count(), "python": platform.python_version(), "torch": torch.__version__,
           "triton": triton.__version__, "summary": summary, "rows": rows}
    args.out.write_text(json.dumps(doc, indent=2))
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
