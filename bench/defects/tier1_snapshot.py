"""Tier 1's findings on every committed development case, to compare before and after a change.

    .venv/bin/python bench/defects/tier1_snapshot.py OUT.json [CASE ...] [--captured] [--workers 2]
    .venv/bin/python bench/defects/tier1_snapshot.py --diff BEFORE.json AFTER.json

Writes {case: [[family, confidence, card], ...]} in tier 1's order. Without --captured the
kernels are read as source only (about 35 s for all cases on 2 cores); with it, each case's IR
capture (PASSWISE_CAPTURE_CACHE, a miss captures: slow) supplies the launch values the ladder's
re-read uses, so readings that need a computed block size show. Held-out cases are never read.
--diff prints the cases whose findings differ.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from cases import REPO_ROOT, load_cases

sys.path.insert(0, str(REPO_ROOT))


def _one(job: tuple[str, str, str, str, str, bool]) -> tuple[str, list]:
    name, task_dir, slow, backend, size, captured = job
    from diagnose.triage.tier import triage
    values: dict = {}
    if captured:
        from diagnose.ir import capture_ascend, capture_cuda
        from diagnose.ir.cache import cached
        from diagnose.ir.errors import IRCaptureError
        from diagnose.ladder import launch_values

        def capture():
            if backend == "ascend":
                return capture_ascend(task_dir, slow, size=size, python=os.environ.get("PASSWISE_ASCEND_PYTHON"))
            return capture_cuda(task_dir, slow, size=size)
        try:
            values = launch_values(cached([Path(task_dir), Path(slow)], size, backend, capture))
        except IRCaptureError:
            values = {}
    result = triage(Path(slow).read_text(), slow, backend, resolved=values)
    return name, [[f.rewrite_family, round(f.confidence, 3), f.card_id] for f in result.findings]


def _committed() -> set[str]:
    out = subprocess.run(["git", "-C", str(REPO_ROOT), "ls-files", "bench/defects/*/case.toml"],
                         capture_output=True, text=True, check=False).stdout
    return {Path(line).parent.name for line in out.split()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", help="OUT.json [CASE ...], or with --diff BEFORE.json AFTER.json")
    ap.add_argument("--captured", action="store_true", help="use each case's IR capture for launch values")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--diff", action="store_true", help="compare two snapshots")
    args = ap.parse_args(argv)
    if args.diff:
        if len(args.paths) != 2:
            ap.error("--diff takes BEFORE.json AFTER.json")
        before, after = (json.loads(Path(p).read_text()) for p in args.paths)
        changed = sorted(k for k in before.keys() & after.keys() if before[k] != after[k])
        for name in changed:
            print(f"{name}\n  before {before[name][:3]}\n  after  {after[name][:3]}")
        print(f"{len(changed)} of {len(before.keys() & after.keys())} cases changed")
        return 0
    if not args.paths:
        ap.error("give OUT.json")
    out, only = Path(args.paths[0]), set(args.paths[1:])
    committed = _committed()
    cases = [c for c in load_cases() if not c.held_out and c.name in committed and (not only or c.name in only)]
    jobs = [(c.name, str(c.task_dir), str(c.slow), c.backend, c.size, args.captured) for c in cases]
    with ProcessPoolExecutor(args.workers) as pool:
        found = dict(pool.map(_one, jobs))
    out.write_text(json.dumps(found, indent=0))
    print(f"{len(found)} development cases -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
