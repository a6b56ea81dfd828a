"""Fill the H200 cells of case rows from a gpu_timing.py result, without printing held-out rows.

    python bench/defects/fill_timings.py results/gpu_timing_h200_TAG.json [--dry-run]

For every timed case (status ok) whose row in README.md or HELD_OUT.md still has empty or "-"
timing cells, writes slow ms, fixed ms and the speedup (2 decimals, "x"). Rows are matched by
the backticked case name in the first cell; the last three cells of the row are the timing
cells. Prints per file how many rows were filled and the names of timed cases whose fix is under
1.05x (they are to be dropped), never a held-out row's text.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
EMPTY = {"", "-"}
MIN_SPEEDUP = 1.05


def _filled(row: str, timing: dict) -> str | None:
    cells = row.rstrip("\n").split("|")
    # "| a | b | ... | s | f | x |" splits into ["", " a ", ..., " x ", ""]
    if len(cells) < 5 or any(c.strip() not in EMPTY for c in cells[-4:-1]):
        return None
    cells[-4:-1] = [f" {timing['slow_ms']:.3f} ", f" {timing['fixed_ms']:.3f} ",
                    f" {timing['speedup']:.2f}x "]
    return "|".join(cells) + "\n"


def fill(path: Path, timings: dict[str, dict], dry_run: bool) -> int:
    lines = path.read_text().splitlines(keepends=True)
    count = 0
    for i, line in enumerate(lines):
        if not line.startswith("| `"):
            continue
        name = line.split("`", 2)[1]
        if name in timings:
            new = _filled(line, timings[name])
            if new is not None:
                lines[i], count = new, count + 1
    if count and not dry_run:
        path.write_text("".join(lines))
    return count


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("result", type=Path, help="a gpu_timing.py JSON")
    ap.add_argument("--dry-run", action="store_true", help="count, write nothing")
    args = ap.parse_args(argv)
    try:
        data = json.loads(args.result.read_text())
    except (OSError, ValueError) as exc:
        print(f"cannot read {args.result}: {exc}", file=sys.stderr)
        return 2
    timings = {c["case"]: c for c in data.get("cases", [])
               if c.get("status") == "ok" and c.get("speedup") is not None}
    for name in ("README.md", "HELD_OUT.md"):
        print(f"{name}: {fill(HERE / name, timings, args.dry_run)} row(s) filled")
    slow = sorted(n for n, c in timings.items() if c["speedup"] < MIN_SPEEDUP)
    failed = sorted(c["case"] for c in data.get("cases", []) if c.get("status") != "ok")
    if slow:
        print("fix under 1.05x (drop): " + ", ".join(slow))
    if failed:
        print("not timed: " + ", ".join(failed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
