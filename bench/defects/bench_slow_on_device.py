"""On the GPU host: runner `bench` (and `profile`) for every CUDA case's slow.py, one JSON file
per case, written as soon as the case is done (a cut-off run keeps what it measured).

Gives the ladder's tier 2 real timings for the seeded defects. Needs only torch and triton
(it calls `python -m diagnose.runner`). Usage:
    python bench/defects/bench_slow_on_device.py OUT_DIR [CASE ...] [--cache CEILINGS.json]
        [--profile] [--budget SECONDS]
Cases that already have a file in OUT_DIR are skipped, so a second call resumes the first.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def _cases(names: list[str]):
    spec = importlib.util.spec_from_file_location("defect_cases", HERE / "cases.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["defect_cases"] = mod
    spec.loader.exec_module(mod)
    return [c for c in mod.load_cases(names or None) if c.backend == "cuda"]


def _runner(args: list[str], timeout: float) -> dict:
    try:
        out = subprocess.run([sys.executable, "-m", "diagnose.runner", *args], cwd=REPO,
                             capture_output=True, text=True, timeout=timeout)
        return json.loads(out.stdout)
    except (subprocess.TimeoutExpired, json.JSONDecodeError) as e:
        return {"error": f"{type(e).__name__}: runner gave no JSON"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="folder for <case>.json")
    ap.add_argument("cases", nargs="*", help="case names (default: every CUDA case)")
    ap.add_argument("--cache", default=str(REPO / "results" / "ceilings-h200.json"))
    ap.add_argument("--profile", action="store_true", help="also run ncu through `profile`")
    ap.add_argument("--budget", type=float, default=540.0,
                    help="stop starting new cases after this many seconds")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    for case in _cases(args.cases):
        target = args.out / f"{case.name}.json"
        if target.exists():
            continue
        if time.monotonic() - started > args.budget:
            print("budget spent; run again to resume", flush=True)
            break
        common = [str(case.task_dir), str(case.slow)]
        entry = {"case": case.name, "size": case.size,
                 "bench": _runner(["bench", *common, "--sizes", case.size, "--no-compile",
                                   "--cache", args.cache, "--json"], timeout=120)}
        if args.profile:
            entry["profile"] = _runner(["profile", *common, "--size", case.size, "--json"],
                                       timeout=120)
        target.write_text(json.dumps(entry, indent=1))
        print(case.name, "ok" if "error" not in entry["bench"] else entry["bench"]["error"],
              f"{time.monotonic() - started:.0f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
