"""The frozen held-out split of the seeded-defect cases: which cases are held out, by a hash of the name.

A case that names the real-world kernel it is modelled on (`model` in case.toml) is held out when
int(sha256(name).hexdigest(), 16) % 3 == 0; cases without `model` (the first 29, tuned on) are
development. A held-out case that was opened to fix the diagnosis is spent: case.toml says when and
why in `spent`, and it counts as development from then on (which held-out cases get spent is
itself chosen by a hash, `spend_by_hash`, never by how they score). Standard library only.

    python bench/defects/split.py [NAME ...] [--check]

With names, prints the rule's verdict for each (use it to fill `held_out` in a new case.toml);
without, lists every case with its split; --check exits 1 when a case.toml disagrees with the rule.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cases import DefectCase, load_cases  # noqa: E402


def held_out_by_hash(name: str) -> bool:
    """The split rule: a third of the names, chosen by their sha256."""
    return int(hashlib.sha256(name.encode()).hexdigest(), 16) % 3 == 0


def spend_by_hash(name: str, salt: str) -> bool:
    """Which held-out cases one round of spending opens: half of them, by a salted sha256."""
    return int(hashlib.sha256(f"{salt}:{name}".encode()).hexdigest(), 16) % 2 == 0


def expected_held_out(case: DefectCase) -> bool:
    """What `held_out` must be: the hash rule for cases with a model and not spent, else development."""
    return held_out_by_hash(case.name) and not case.spent if case.model else False


def disagreements(cases: list[DefectCase]) -> list[str]:
    """One sentence per case whose case.toml `held_out` differs from the rule."""
    return [f"{c.name}: held_out = {str(c.held_out).lower()} in case.toml, the rule says "
            f"{str(expected_held_out(c)).lower()}" for c in cases if c.held_out != expected_held_out(c)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="case names to classify (need not exist yet)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a case.toml disagrees with the rule")
    args = ap.parse_args(argv)
    if args.names:
        for name in args.names:
            print(f"{name}\t{'held-out' if held_out_by_hash(name) else 'development'}")
        return 0
    cases = load_cases()
    for c in cases:
        split = "held-out" if c.held_out else ("development (spent)" if c.spent else "development")
        print(f"{c.name}\t{c.backend}\t{split}\t{'new' if c.model else 'old'}")
    new = [c for c in cases if c.model]
    print(f"{len(cases)} cases: {len(new)} new ({sum(c.held_out for c in new)} held out), "
          f"{len(cases) - len(new)} old (development)")
    problems = disagreements(cases)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if args.check and problems else 0


if __name__ == "__main__":
    sys.exit(main())
