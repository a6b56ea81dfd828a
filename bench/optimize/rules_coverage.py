"""How many development defects the offline rules proposer can answer: for each development case
(never a held-out one), the proposal for its expected rewrite family on slow.py, as the loop would
ask for it when the ladder concludes that family. Reads only case.toml and slow.py.

    python bench/optimize/rules_coverage.py [--json]
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from diagnose.proposers import Request  # noqa: E402
from diagnose.proposers.rules import propose  # noqa: E402


def coverage() -> dict:
    rows = []
    for case in sorted((ROOT / "bench" / "defects").iterdir()):
        meta = case / "case.toml"
        if not meta.is_file():
            continue
        spec = tomllib.loads(meta.read_text())
        if spec.get("held_out"):
            continue
        family = spec["expected_family"]
        diagnosis = {"verdict": "concluded", "tiers": [], "conclusion": {"rewrite_family": family}}
        p = propose(Request(spec["task"], "", (case / "slow.py").read_text(), diagnosis, [], family))
        rows.append({"case": case.name, "family": family, "transformation": p.transformation,
                     "candidates": len(p.candidates)})
    answered = [r for r in rows if r["candidates"]]
    return {"development_cases": len(rows), "answered": len(answered), "rows": rows}


def main() -> int:
    result = coverage()
    if "--json" in sys.argv:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{result['answered']}/{result['development_cases']} development cases get a rules proposal "
          "for their expected family")
    for r in result["rows"]:
        if r["candidates"]:
            print(f"  {r['case']}: {r['family']} -> {r['transformation']} ({r['candidates']} candidates)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
