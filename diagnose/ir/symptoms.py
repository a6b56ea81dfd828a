"""Symptoms from a capture, each pinned to the pass that introduced it or failed to remove it.

Detectors are an ordered list of small functions (KernelIR in, symptoms out), like the
pass lists of a backend's compiler.py; `attribute` runs them all.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .model import IRCapture, KernelIR, Stage, StageSignature, Symptom

NARROW_BITS = 32


def attribute(capture: IRCapture) -> list[Symptom]:
    """All symptoms of all kernels of a capture, compile failures first."""
    symptoms = [Symptom(id="compile-failure", kernel=f.kernel, pass_arg=f.phase,
                        stage_index=None, summary="the kernel did not compile",
                        evidence=f.message.splitlines()[-12:]) for f in capture.failures]
    detectors = ASCEND_DETECTORS if capture.backend == "ascend" else CUDA_DETECTORS
    for kir in capture.kernels:
        if kir.failure is None:
            for detect in detectors:
                symptoms.extend(detect(kir))
    return symptoms


# ---------------------------------------------------------------- helpers over one kernel

def _first(kir: KernelIR, pass_arg: str, when: str = "before") -> int | None:
    return next((s.index for s in kir.stages if s.pass_arg == pass_arg and s.when == when), None)


def _state_after_pipeline(kir: KernelIR, next_first_pass: str) -> int | None:
    """Index of the IR a pipeline handed on: the Before dump of the next pipeline's first pass."""
    return _first(kir, next_first_pass)


def _named(kir: KernelIR, name: str) -> Stage | None:
    return next((s for s in kir.stages if s.name == name and s.when == "final"), None)


def _sig(kir: KernelIR, index: int) -> StageSignature:
    return kir.signatures[index]


def _introduced(kir: KernelIR, field: str, upto: int) -> tuple[str, int] | None:
    """The pass after which `field` last became non-zero (before stage `upto`)."""
    found = None
    for diff in kir.diffs:
        if diff.to_index > upto:
            break
        for change in diff.changes:
            if change.field == field and not change.before and change.after:
                found = (diff.pass_arg, diff.to_index)
            elif change.field == field and change.before and not change.after:
                found = None
    return found


def _lines(text: str, pattern: str, limit: int = 4) -> list[str]:
    rx = re.compile(pattern)
    return [ln.strip()[:200] for ln in text.splitlines() if rx.search(ln)][:limit]


# ---------------------------------------------------------------- CUDA detectors

def scalar_global_loads(kir: KernelIR) -> list[Symptom]:
    ptx = _named(kir, "ptx")
    if ptx is None:
        return []
    loads = _sig(kir, ptx.index).global_loads
    narrow = sum(n for bits, n in loads.items() if int(bits) <= NARROW_BITS)
    if not loads or narrow * 2 < sum(loads.values()):
        return []
    after_coalesce = _first(kir, "tritongpu-coalesce")
    evidence = [f"PTX global loads by width (bits): {loads}"]
    evidence += _lines(ptx.text, r"ld\.global")
    if after_coalesce is not None and after_coalesce + 1 < len(kir.stages):
        evidence += _lines(kir.stages[after_coalesce + 1].text, r"^#blocked\d* = ")
    spec = kir.specialization
    for arg, ty in spec.signature.items():
        if ty.startswith(("i32", "i64")) and arg not in spec.attrs:
            evidence.append(f"argument {arg}: {ty} is a runtime value without tt.divisibility "
                            "(no multiple-of-16 hint), so axis analysis cannot prove contiguity")
    return [Symptom(id="scalar-global-loads", kernel=kir.kernel, pass_arg="tritongpu-coalesce",
                    stage_index=after_coalesce,
                    summary=f"{narrow} of {sum(loads.values())} global loads are "
                            f"<= {NARROW_BITS}-bit; coalesce chose sizePerThread from the "
                            "contiguity it could prove",
                    evidence=evidence)]


def convert_layout_survives(kir: KernelIR) -> list[Symptom]:
    end = _state_after_pipeline(kir, "convert-scf-to-cf")
    if end is None or _sig(kir, end).convert_layouts == 0:
        return []
    intro = _introduced(kir, "convert_layouts", end)
    by, at = intro if intro else ("convert-triton-to-tritongpu", 0)
    survived = sorted({s.pass_arg for s in kir.stages[at:end]
                       if s.pass_arg == "tritongpu-remove-layout-conversions"})
    return [Symptom(id="convert-layout-survives", kernel=kir.kernel, pass_arg=by,
                    stage_index=at,
                    summary=f"{_sig(kir, end).convert_layouts} ttg.convert_layout reach LLVM "
                            "lowering (each is a shared-memory round trip or shuffles)",
                    evidence=_lines(kir.stages[end].text, r"ttg\.convert_layout"),
                    survived=survived)]


def dot_without_wgmma(kir: KernelIR) -> list[Symptom]:
    ttir = _state_after_pipeline(kir, "convert-triton-to-tritongpu")
    end = _state_after_pipeline(kir, "convert-scf-to-cf")
    arch = str(kir.specialization.options.get("arch", ""))
    if ttir is None or end is None or not arch.startswith("sm9"):
        return []
    if _sig(kir, ttir).dots == 0 or _sig(kir, end).warp_group_dots > 0:
        return []
    sig = _sig(kir, end)
    return [Symptom(id="dot-without-wgmma", kernel=kir.kernel,
                    pass_arg="tritongpu-accelerate-matmul",
                    stage_index=_first(kir, "tritongpu-accelerate-matmul"),
                    summary=f"tt.dot was not turned into warp-group MMA on {arch} "
                            f"(mma versions seen: {sig.mma_versions or 'none'})",
                    evidence=_lines(kir.stages[ttir].text, r"tt\.dot"))]


def no_async_copy_after_pipeline(kir: KernelIR) -> list[Symptom]:
    start = _first(kir, "tritongpu-pipeline")
    end = _state_after_pipeline(kir, "convert-scf-to-cf")
    if start is None or end is None:
        return []
    before = _sig(kir, start)
    after = _sig(kir, end)
    has_mma_loop = before.loops > 0 and (before.dots or before.warp_group_dots)
    if not has_mma_loop or after.async_copies or after.tma_ops:
        return []
    stages = kir.specialization.options.get("num_stages")
    return [Symptom(id="no-async-copy-after-pipeline", kernel=kir.kernel,
                    pass_arg="tritongpu-pipeline", stage_index=start,
                    summary=f"the dot loop was not software-pipelined (num_stages={stages}): "
                            "no async copies or TMA loads after tritongpu-pipeline",
                    evidence=_lines(kir.stages[end].text, r"scf\.for|tt\.load"))]


def register_spills(kir: KernelIR) -> list[Symptom]:
    p = kir.ptxas
    local_ops = kir.sass.local_memory_ops if kir.sass else 0
    if p is None or (p.spill_stores + p.spill_loads == 0 and local_ops == 0):
        return []
    return [Symptom(id="register-spills", kernel=kir.kernel, pass_arg="ptxas",
                    stage_index=None,
                    summary=f"{p.registers} registers, {p.spill_stores} B spill stores, "
                            f"{p.spill_loads} B spill loads, {local_ops} local-memory ops",
                    evidence=[ln for ln in p.log.splitlines() if "spill" in ln or "Used" in ln])]


def int64_index_arith(kir: KernelIR) -> list[Symptom]:
    ttir = _state_after_pipeline(kir, "convert-triton-to-tritongpu")
    if ttir is None or _sig(kir, ttir).i64_tensor_arith == 0:
        return []
    return [Symptom(id="int64-index-arith", kernel=kir.kernel, pass_arg="ast-to-ttir",
                    stage_index=ttir,
                    summary=f"{_sig(kir, ttir).i64_tensor_arith} tensor-wide int64 arithmetic "
                            "ops survive the TTIR pipeline (the source computes indices in int64)",
                    evidence=_lines(kir.stages[ttir].text, r"arith\.\w+ .*xi64"))]


CUDA_DETECTORS: list[Callable[[KernelIR], list[Symptom]]] = [
    scalar_global_loads, convert_layout_survives, dot_without_wgmma,
    no_async_copy_after_pipeline, register_spills, int64_index_arith,
]


# ---------------------------------------------------------------- Ascend detectors

def _changed_by(kir: KernelIR, pass_arg: str, field: str) -> tuple[int, object, object] | None:
    for diff in kir.diffs:
        if diff.pass_arg == pass_arg:
            for c in diff.changes:
                if c.field == field:
                    return diff.to_index, c.before, c.after
    return None


def discrete_mask_access(kir: KernelIR) -> list[Symptom]:
    hit = _changed_by(kir, "discrete-mask-access-conversion", "selects")
    if hit is None or not hit[2] > hit[1]:
        return []
    index, before, after = hit
    return [Symptom(id="discrete-mask-to-select", kernel=kir.kernel,
                    pass_arg="discrete-mask-access-conversion", stage_index=index,
                    summary="a discrete (non-contiguous) mask was rewritten into a full load "
                            f"plus arith.select ({before} -> {after} selects)",
                    evidence=_lines(kir.stages[index].text, r"arith\.select|tt\.load"))]


def unstructured_access_fallback(kir: KernelIR) -> list[Symptom]:
    hit = _changed_by(kir, "triton-to-unstructure", "discrete_accesses")
    if hit is None or not hit[2]:
        return []
    index = hit[0]
    return [Symptom(id="unstructured-access-fallback", kernel=kir.kernel,
                    pass_arg="triton-to-unstructure", stage_index=index,
                    summary="memory access with offsets the pass could not prove structured "
                            "was scalarised into an element-by-element loop (DiscreteMemAccess)",
                    evidence=_lines(kir.stages[index].text, r"DiscreteMemAccess|scf\.for"))]


ASCEND_DETECTORS: list[Callable[[KernelIR], list[Symptom]]] = [
    discrete_mask_access, unstructured_access_fallback,
]
