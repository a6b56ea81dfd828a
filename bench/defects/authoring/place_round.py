"""Place a fresh round's table rows without reading the held-out ones.

    python bench/defects/authoring/place_round.py ROUND "domain, domain, ..."

Development rows go into a new "## Round N" section of bench/defects/README.md (before the
previous round's section), held-out rows into a new section at the end of HELD_OUT.md; each row is
built from case.toml (model, defect, expected and acceptable families). Prints DEV=, HO= and
CUDA= shell assignments with the case names (names only: no held-out row is printed).
"""

from __future__ import annotations

import sys
import tomllib
from datetime import date
from pathlib import Path

DEFECTS = Path(__file__).resolve().parents[1]
HEADER = ("| case | task | model | defect (fix) | expected family | tier | H200 slow ms | fixed ms | speedup |\n"
          "|---|---|---|---|---|---|---|---|---|")


def _cell(text: object) -> str:
    return " ".join(str(text).split()).replace("|", "/")


def _row(name: str, case: dict) -> str:
    family = f"`{case['expected_family']}`"
    if case.get("acceptable_families"):
        family += f" (`{'`, `'.join(case['acceptable_families'])}`)"
    return (f"| `{name}` | {case['task']} | {_cell(case['model'])} | {_cell(case['defect'])} | {family} "
            f"| {case['expected_tier']} | - | - | - |")


def main(argv: list[str]) -> int:
    if len(argv) != 2 or not argv[0].isdigit():
        print(__doc__.strip().splitlines()[2].strip())
        return 2
    number, domains = int(argv[0]), argv[1]
    cases = [(f.parent.name, tomllib.loads(f.read_text())) for f in sorted(DEFECTS.glob("*/case.toml"))]
    cases = [(name, case) for name, case in cases if case.get("round") == number]
    if not cases:
        print(f"No case.toml under {DEFECTS} has round = {number}.")
        return 1
    dev = [(n, c) for n, c in cases if not c["held_out"]]
    held = [(n, c) for n, c in cases if c["held_out"]]
    readme = DEFECTS / "README.md"
    text = readme.read_text()
    before = f"## Round {number - 1} (issue 12)"
    if f"## Round {number} (issue 12)" in text or before not in text:
        print(f"README.md already has round {number}, or has no section '{before}' to place it before.")
        return 1
    section = (f"## Round {number} (issue 12): a fresh exam\n\nCases written on {date.today()} (`round = {number}`) "
               f"by helpers who did not see the diagnosis code (domains: {domains}). {len(held)} of the "
               f"{len(cases)} hash to held out; their rows went to `HELD_OUT.md` (\"Round {number}\") by script, "
               "unread. CUDA cases are timed on the H200 when device time allows (empty speedup cells until "
               "then); a case the H200 does not confirm at >= 1.05x is dropped.\n\n"
               f"**Development ({len(dev)})**\n\n{HEADER}\n" + "\n".join(_row(n, c) for n, c in dev) + "\n\n")
    readme.write_text(text.replace(before, section + before, 1))
    held_file = DEFECTS / "HELD_OUT.md"
    held_file.write_text(held_file.read_text().rstrip("\n") + f"\n\n## Round {number} ({date.today()})\n\n"
                         "Held out by `split.py`'s hash rule; rows placed by script, unread.\n\n"
                         f"{HEADER}\n" + "\n".join(_row(n, c) for n, c in held) + "\n")
    print(f'DEV="{" ".join(n for n, _ in dev)}"')
    print(f'HO="{" ".join(n for n, _ in held)}"')
    print(f'CUDA="{" ".join(n for n, c in cases if c["backend"] == "cuda")}"')
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
