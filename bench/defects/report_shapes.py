"""Collect the development cases' diagnosis reports (run_diagnosis.py --reports DIR) into the
gzipped fixture tests/test_consistency.py checks: each report reduced to the fields a reader
checks for consistency (diagnose.consistency.shape), keyed "<config>/<case>".

    .venv/bin/python bench/defects/report_shapes.py CONFIG=DIR [CONFIG=DIR ...] [--out FILE]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

from cases import REPO_ROOT, load_cases

OUT = REPO_ROOT / "tests" / "diagnosis_fixtures" / "dev-cases.json.gz"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", help="CONFIG=DIR of <case>.json reports")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(REPO_ROOT))
    from diagnose.consistency import shape

    held_out = {c.name for c in load_cases() if c.held_out}
    shapes = {}
    for item in args.folders:
        config, _, folder = item.partition("=")
        for path in sorted(Path(folder).glob("*.json")):
            if path.stem in held_out:
                continue  # never kept, even by mistake
            report = json.loads(path.read_text())
            if "error" not in report:
                shapes[f"{config}/{path.stem}"] = shape(report)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(gzip.compress(json.dumps(shapes, sort_keys=True).encode()))
    print(f"{len(shapes)} report shapes -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
