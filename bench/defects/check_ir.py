"""Does each fixed.py remove its defect where the IR can show it? Compile slow and fixed on CPU.

CUDA cases compile for sm_90 through diagnose.ir.capture_cuda; Ascend cases run the Ascend
front end through capture_ascend (needs the triton-ascend env: PASSWISE_ASCEND_PYTHON or
--ascend-python). Only cases whose case.toml names an expected_symptom are checked. For each
candidate the table lists the tier-3 symptoms and the facts they rest on (widest PTX global
load, spills, surviving convert_layouts, wgmma, async copies, Ascend selects/discrete accesses).

    .venv/bin/python bench/defects/check_ir.py [CASE ...] [--json OUT] [--ascend-python PY]
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cases import REPO_ROOT, DefectCase, load_cases

sys.path.insert(0, str(REPO_ROOT))
from diagnose.ir import attribute, capture_ascend, capture_cuda  # noqa: E402
from diagnose.ir.errors import IRCaptureError  # noqa: E402

# Sizes at which the defect (and its absence in fixed.py) is visible and inputs stay cheap on CPU:
# small tiles give 1 element per thread and hide vector width; ragged n is the add-ragged defect.
CAPTURE_SIZE = {"add-ragged-mask-scalar": "ragged", "rope-split-halves": "small"}
DEFAULT_CAPTURE_SIZE = "large"
CHEAP_SMALL = {"ascend-embedding-vector-id", "ascend-fft-strided-mask", "ascend-geglu-div-mod"}


@dataclass
class IRFacts:
    """What the IR of one candidate shows (all kernels of its launches together)."""

    symptoms: list[str] = field(default_factory=list)
    widest_load_bits: int = 0
    narrow_load_share: float = 0.0
    spill_bytes: int = 0
    convert_layouts: int = 0
    warp_group_dots: int = 0
    async_copies: int = 0
    selects: int = 0
    discrete_accesses: int = 0
    error: str = ""


@dataclass
class IRCheck:
    case: str
    backend: str
    size: str
    expected_symptom: str
    slow: IRFacts
    fixed: IRFacts
    verdict: str            # removed | not-shown | still-present | error


def capture_size(case: DefectCase) -> str:
    if case.name in CHEAP_SMALL:
        return "small"
    return CAPTURE_SIZE.get(case.name, DEFAULT_CAPTURE_SIZE)


def facts_of(case: DefectCase, candidate: Path, size: str, ascend_python: str | None) -> IRFacts:
    """Capture one candidate and boil its IR down to the facts the symptoms rest on."""
    try:
        if case.backend == "ascend":
            cap = capture_ascend(case.task_dir, candidate, size=size, python=ascend_python)
        else:
            cap = capture_cuda(case.task_dir, candidate, size=size)
    except IRCaptureError as exc:
        return IRFacts(error=str(exc))
    facts = IRFacts(symptoms=sorted({s.id for s in attribute(cap)}))
    narrow = total = 0
    for kir in cap.kernels:
        if kir.failure is not None:
            facts.error = f"{kir.kernel} did not compile"
            continue
        end = next((s.index for s in kir.stages if s.pass_arg == "convert-scf-to-cf"), None)
        ptx = next((s.index for s in kir.stages if s.name == "ptx" and s.when == "final"), None)
        if ptx is not None:
            loads = kir.signatures[ptx].global_loads
            facts.widest_load_bits = max([facts.widest_load_bits, *map(int, loads)])
            narrow += sum(n for bits, n in loads.items() if int(bits) <= 32)
            total += sum(loads.values())
        if end is not None:
            sig = kir.signatures[end]
            facts.convert_layouts += sig.convert_layouts
            facts.warp_group_dots += sig.warp_group_dots
            facts.async_copies += sig.async_copies + sig.tma_ops
        if kir.ptxas:
            facts.spill_bytes += kir.ptxas.spill_stores + kir.ptxas.spill_loads
        if case.backend == "ascend" and kir.signatures:
            facts.selects = max(facts.selects, max(s.selects for s in kir.signatures))
            facts.discrete_accesses = max(facts.discrete_accesses,
                                          max(s.discrete_accesses for s in kir.signatures))
    facts.narrow_load_share = round(narrow / total, 2) if total else 0.0
    return facts


def verdict(expected: str, slow: IRFacts, fixed: IRFacts) -> str:
    if slow.error or fixed.error:
        return "error"
    if expected not in slow.symptoms:
        return "not-shown"
    if expected not in fixed.symptoms:
        return "removed"
    # a masked tail branch may keep some scalar loads; the hot path got wider
    if expected == "scalar-global-loads" and fixed.widest_load_bits > slow.widest_load_bits:
        return "removed"
    return "still-present"


def check_case(case: DefectCase, ascend_python: str | None) -> IRCheck:
    size = capture_size(case)
    slow = facts_of(case, case.slow, size, ascend_python)
    fixed = facts_of(case, case.fixed, size, ascend_python)
    return IRCheck(case.name, case.backend, size, case.expected_symptom, slow, fixed,
                   verdict(case.expected_symptom, slow, fixed))


def _cell(f: IRFacts) -> str:
    if f.error:
        return f"error: {f.error[:120]}"
    bits = [",".join(f.symptoms) or "-", f"ld<={f.widest_load_bits}b ({f.narrow_load_share:.0%} narrow)"]
    bits += [f"spill {f.spill_bytes}B"] if f.spill_bytes else []
    bits += [f"cvt {f.convert_layouts}"] if f.convert_layouts else []
    bits += [f"wgmma {f.warp_group_dots}"] if f.warp_group_dots else []
    bits += [f"async {f.async_copies}"] if f.async_copies else []
    bits += [f"select {f.selects} discrete {f.discrete_accesses}"] if f.selects or f.discrete_accesses else []
    return "; ".join(bits)


def table(checks: list[IRCheck]) -> str:
    rows = ["| case | size | expected symptom | slow | fixed | verdict |", "|---|---|---|---|---|---|"]
    rows += [f"| {c.case} | {c.size} | {c.expected_symptom} | {_cell(c.slow)} | {_cell(c.fixed)} | {c.verdict} |"
             for c in checks]
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="*", help="case folder names (default: every case with an expected_symptom)")
    ap.add_argument("--json", type=Path, help="also write the results here")
    ap.add_argument("--ascend-python", help="interpreter of the triton-ascend env (default: PASSWISE_ASCEND_PYTHON)")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    cases = [c for c in load_cases(args.cases or None) if c.expected_symptom]
    with ThreadPoolExecutor(max_workers=max(1, args.workers)) as pool:
        checks = list(pool.map(lambda c: check_case(c, args.ascend_python), cases))
    print(table(checks))
    removed = sum(c.verdict == "removed" for c in checks)
    print(f"\nfixed.py removes the IR symptom in {removed} of {len(checks)} cases.")
    if args.json:
        args.json.write_text(json.dumps([asdict(c) for c in checks], indent=2))
    return 0 if removed == len(checks) else 1


if __name__ == "__main__":
    sys.exit(main())
