"""Metamorphic check of tier 1: does pattern triage name the same family when a development
case's slow.py is rewritten in ways that keep its meaning and its defect?

Real authors bind launch constants to locals or module constants, compute them, name their
variables differently and spell a ceiling division by hand. A detector that reads one spelling
only fails on kernels nobody tuned it on, so each rewrite below is applied alone to every
DEVELOPMENT case (held-out cases are never read) and tier 1's first family is compared with the
original's. A flip is a brittleness to fix in general form, found without spending held-out cases.

    .venv/bin/python bench/defects/metamorphic.py [CASE ...] [--out DIR] [--verify]

`--verify` also runs every mutant against the task's reference under the Triton interpreter (as
verify_cpu.py does for slow.py), so a rewrite that changed the kernel's meaning shows as a failure.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import os
import subprocess
import tempfile

from cases import REPO_ROOT, load_cases
from spellings import respell
from verify_cpu import CHECK_SCRIPT, SEEDS, TIMEOUT_S

sys.path.insert(0, str(REPO_ROOT))

from diagnose.triage.tier import triage  # noqa: E402


def first_family(source: str, path: str, backend: str) -> str:
    result = triage(source, path, backend)
    return result.findings[0].rewrite_family if result.findings else "-"


def still_correct(case, mutant: str) -> str:
    """'' when the mutant matches the task's reference at size small under the interpreter, else why."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "mutant.py")
        with open(path, "w") as f:
            f.write(mutant)
        env = dict(os.environ, TRITON_INTERPRET="1", CUDA_VISIBLE_DEVICES="")
        cmd = [sys.executable, "-c", CHECK_SCRIPT, str(case.task_dir / "task.py"), ",".join(map(str, SEEDS[:1])),
               path, path]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return f"timed out after {TIMEOUT_S} s"
        lines = proc.stdout.strip().splitlines()
        if proc.returncode or not lines:
            return (proc.stderr.strip().splitlines() or ["no output"])[-1][:200]
        return "; ".join(json.loads(lines[-1])["slow"]["problems"])


def check_case(case, verify: bool = False, only: set[str] | None = None) -> list[dict]:
    source = case.slow.read_text()
    base = first_family(source, str(case.slow), case.backend)
    rows = []
    for name, mutant in respell(source, str(case.slow), case.backend):
        if only and name not in only:
            continue
        found = first_family(mutant, str(case.slow), case.backend)
        row = {"case": case.name, "backend": case.backend, "rewrite": name,
               "original": base, "mutant": found, "flip": found != base,
               "expected": case.expected_family, "original_right": base == case.expected_family}
        if verify and case.backend == "cuda":
            row["wrong"] = still_correct(case, mutant)
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--verify", action="store_true", help="run each CUDA mutant against the reference (interpreter)")
    parser.add_argument("--rewrites", help="comma-separated rewrite names to apply (default: all)")
    args = parser.parse_args()
    only = set(args.rewrites.split(",")) if args.rewrites else None
    started = time.time()
    cases = [c for c in load_cases(args.cases or None) if not c.held_out]
    rows = [r for c in cases for r in check_case(c, args.verify, only)]
    flips = [r for r in rows if r["flip"]]
    by_rewrite = Counter(r["rewrite"] for r in flips)
    summary = {"cases": len(cases), "mutants": len(rows), "flips": len(flips),
               "flips_from_right": sum(r["original_right"] for r in flips),
               "by_rewrite": dict(by_rewrite), "seconds": round(time.time() - started, 1)}
    if args.verify:
        wrong = [r for r in rows if r.get("wrong")]
        summary["verified"] = sum("wrong" in r for r in rows)
        summary["wrong"] = len(wrong)
        for r in wrong:
            print(f"WRONG {r['case']:45s} {r['rewrite']:22s} {r['wrong']}")
    for r in flips:
        print(f"{r['case']:45s} {r['rewrite']:22s} {r['original']} -> {r['mutant']}")
    print(json.dumps(summary, indent=1))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "metamorphic.json").write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
