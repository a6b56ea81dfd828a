"""How often each rewrite family was right when the ladder first answered it, on cases it had never seen.

Every round of new development cases is diagnosed once before anything is changed for it (the
`*first-run*` folders under results/issue12); those answers are out of sample for the code of the
day. This script counts, per backend and answered family, how many first answers were that family
and how many of them were right (the case's expected family, strictly), and writes the
reliability the ranking uses (`diagnose/calibration.json`, read by `diagnose.weigh`):

    reliability = (right + PRIOR * base) / (answered + PRIOR)

where base is the backend's overall first-answer accuracy, so a family answered a few times stays
near the base and one answered often moves to its own record. Only development cases count, each
once (its earliest first run); held-out folders hold aggregates only and are not read.

    python bench/defects/calibrate.py            # rewrite diagnose/calibration.json
    python bench/defects/calibrate.py --check    # exit 1 when the committed table is stale
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "issue12"
TABLE = HERE.parent.parent / "diagnose" / "calibration.json"
PRIOR = 4.0  # pseudo-answers at the backend's base rate


def _session(folder: Path) -> tuple[int, str]:
    match = re.match(r"session(\d+)", folder.name)
    return (int(match.group(1)) if match else 0, folder.name)


def first_answers(results: Path = RESULTS) -> list[dict]:
    """Each development case's earliest first-run answer (case, backend, found, expected)."""
    seen: dict[str, dict] = {}
    for folder in sorted((p for p in results.glob("*first-run*") if p.is_dir()), key=_session):
        path = folder / "diagnosis.json"
        if not path.is_file():
            continue
        for case in json.loads(path.read_text()).get("cases", []):
            if case.get("held_out") or case["case"] in seen or case.get("error"):
                continue
            seen[case["case"]] = {"case": case["case"], "backend": case["backend"],
                                  "found": case.get("found_family") or "",
                                  "expected": case["expected_family"], "right": bool(case.get("correct"))}
    return list(seen.values())


def table(answers: list[dict]) -> dict:
    """The reliability table: per backend, per answered family."""
    out: dict = {"prior": PRIOR, "cases": len(answers), "backends": {}}
    for backend in sorted({a["backend"] for a in answers}):
        mine = [a for a in answers if a["backend"] == backend and a["found"]]
        base = sum(a["right"] for a in mine) / len(mine)
        answered = Counter(a["found"] for a in mine)
        right = Counter(a["found"] for a in mine if a["right"])
        out["backends"][backend] = {
            "base": round(base, 3),
            "families": {family: {"answered": n, "right": right[family],
                                  "reliability": round((right[family] + PRIOR * base) / (n + PRIOR), 3)}
                         for family, n in sorted(answered.items())},
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when diagnose/calibration.json is stale")
    args = parser.parse_args(argv)
    fresh = json.dumps(table(first_answers()), indent=1, sort_keys=True) + "\n"
    if args.check:
        stale = not TABLE.is_file() or TABLE.read_text() != fresh
        print(f"{TABLE.name}: {'stale, run bench/defects/calibrate.py' if stale else 'up to date'}")
        return 1 if stale else 0
    TABLE.write_text(fresh)
    print(f"wrote {TABLE} from {json.loads(fresh)['cases']} first answers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
