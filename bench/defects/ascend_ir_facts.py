"""Linalg-level facts of the Ascend cases' slow and fixed kernels, for the `ir_evidence` fields.

tier 3 names two Ascend symptoms (discrete-mask-to-select, unstructured-access-fallback); several
cases show their defect only in the final linalg that triton-adapter-opt writes. This script runs
the Ascend front end (diagnose.ir.capture_ascend, needs PASSWISE_ASCEND_PYTHON or --ascend-python)
on both candidates and counts, in the last stage of each kernel:
  strided   memref.reinterpret_cast whose innermost stride is not 1 (a strided tile read/write)
  cmpi      arith.cmpi on an integer tensor that A2/A3 runs as a scalar loop (all but i32 ==/!=;
            bounds masks fold into the copies and do not appear)
  i64       arith add/sub/mul on tensor<...xi64>
  cumsum    @triton_cumsum calls scanning the tile's last axis (dim = rank - 1)
  atomic    GenericAtomic linalg.generic ops
plus the attributed symptoms and the discrete-access/select counts of check_ir.

    .venv/bin/python bench/defects/ascend_ir_facts.py [CASE ...] [--size small] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import asdict, dataclass, field

from cases import REPO_ROOT, DefectCase, load_cases

sys.path.insert(0, str(REPO_ROOT))
from diagnose.ir import attribute, capture_ascend  # noqa: E402
from diagnose.ir.errors import IRCaptureError  # noqa: E402

STRIDED = re.compile(r"memref\.reinterpret_cast [^\n]*strides: \[([^\]]*)\]")
TENSOR_CMPI = re.compile(r"arith\.cmpi (\w+), [^\n]*: tensor<[^>]*x(i\d+)>")
I64_ARITH = re.compile(r"arith\.(?:addi|subi|muli) [^\n]*: tensor<[^>]*xi64>")
CUMSUM = re.compile(r"call @triton_cumsum_\d+\([^)]*\) : \(tensor<([^>]*)>, i32, i1\)")
CUMSUM_DIM = re.compile(r"call @triton_cumsum_\d+\([^,]*, %c(\d+)_i32")


@dataclass
class LinalgFacts:
    """Counts over the final linalg of every kernel of one candidate."""

    symptoms: list[str] = field(default_factory=list)
    strided: int = 0
    cmpi: int = 0
    i64: int = 0
    last_axis_cumsum: int = 0
    atomic: int = 0
    discrete: int = 0
    selects: int = 0
    error: str = ""


def _last_axis_scans(text: str) -> int:
    shapes = [s.count("x") for s in CUMSUM.findall(text)]
    dims = [int(d) for d in CUMSUM_DIM.findall(text)]
    return sum(1 for rank, dim in zip(shapes, dims, strict=False) if dim == rank - 1)


def facts(case: DefectCase, candidate: str, size: str, python: str | None) -> LinalgFacts:
    """Capture one candidate and count the linalg-level facts."""
    try:
        cap = capture_ascend(case.task_dir, getattr(case, candidate), size=size, python=python)
    except IRCaptureError as exc:
        return LinalgFacts(error=str(exc)[:200])
    out = LinalgFacts(symptoms=sorted({s.id for s in attribute(cap)}))
    for kir in cap.kernels:
        if kir.failure is not None:
            out.error = f"{kir.kernel}: {kir.failure}"[:200]
        if not kir.stages:
            continue
        text = kir.stages[-1].text
        out.strided += sum(1 for s in STRIDED.findall(text) if s.split(",")[-1].strip() != "1")
        out.cmpi += sum(1 for pred, ty in TENSOR_CMPI.findall(text)
                        if not (ty == "i32" and pred in ("eq", "ne")))
        out.i64 += len(I64_ARITH.findall(text))
        out.last_axis_cumsum += _last_axis_scans(text)
        out.atomic += text.count("GenericAtomic")
        out.discrete = max([out.discrete, *(s.discrete_accesses for s in kir.signatures)])
        out.selects = max([out.selects, *(s.selects for s in kir.signatures)])
    return out


def _cell(f: LinalgFacts) -> str:
    if f.error:
        return f"error: {f.error}"
    keys = ("strided", "cmpi", "i64", "last_axis_cumsum", "atomic", "discrete", "selects")
    bits = [f"{k} {getattr(f, k)}" for k in keys if getattr(f, k)]
    return "; ".join([",".join(f.symptoms) or "-", *bits])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="*", help="case folder names (default: every Ascend case)")
    ap.add_argument("--size", default="small", help="task size to capture at (default: small)")
    ap.add_argument("--ascend-python", help="interpreter of the triton-ascend env")
    ap.add_argument("--json", help="also write the facts here")
    args = ap.parse_args(argv)
    cases = [c for c in load_cases(args.cases or None) if c.backend == "ascend"]
    rows, print_rows = {}, ["| case | slow | fixed |", "|---|---|---|"]
    for case in cases:
        slow, fixed = (facts(case, c, args.size, args.ascend_python) for c in ("slow", "fixed"))
        rows[case.name] = {"slow": asdict(slow), "fixed": asdict(fixed)}
        print_rows.append(f"| {case.name} | {_cell(slow)} | {_cell(fixed)} |")
    print("\n".join(print_rows))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"size": args.size, "cases": rows}, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
