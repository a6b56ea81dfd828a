"""On the GPU host: runner `bench` (and `profile`) for every CUDA case's slow.py, one JSON file.

Gives the ladder's tier 2 real timings for the seeded defects. Needs only torch and triton
(it calls `python -m diagnose.runner`). Usage:
    python bench/defects/bench_slow_on_device.py OUT.json [--cache CEILINGS.json] [--profile]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def _cases():
    spec = importlib.util.spec_from_file_location("defect_cases", HERE / "cases.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["defect_cases"] = mod
    spec.loader.exec_module(mod)
    return [c for c in mod.load_cases() if c.backend == "cuda"]


def _runner(args: list[str], timeout: float) -> dict:
    try:
        out = subprocess.run([sys.executable, "-m", "diagnose.runner", *args], cwd=REPO,
                             capture_output=True, text=True, timeout=timeout)
        return json.loads(out.stdout)
    except (subprocess.TimeoutExpired, json.JSONDecodeError) as e:
        return {"error": f"{type(e).__name__}: runner gave no JSON"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--cache", default=str(REPO / "results" / "ceilings-h200.json"))
    ap.add_argument("--profile", action="store_true", help="also run ncu through `profile`")
    args = ap.parse_args()
    results = {}
    for case in _cases():
        common = [str(case.task_dir), str(case.slow)]
        entry = {"bench": _runner(["bench", *common, "--sizes", case.size, "--no-compile",
                                   "--cache", args.cache, "--json"], timeout=120)}
        if args.profile:
            entry["profile"] = _runner(["profile", *common, "--size", case.size, "--json"],
                                       timeout=120)
        results[case.name] = entry
        print(case.name, "ok" if "error" not in entry["bench"] else entry["bench"]["error"],
              flush=True)
    Path(args.out).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
