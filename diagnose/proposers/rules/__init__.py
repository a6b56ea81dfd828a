"""The offline proposer: the rewrite family the diagnosis names, applied as AST-located source
transformations. RULES is the ordered list; a family may have several transformations, tried in
order, and the first that applies to the kernel (and was not tried on this parent) proposes."""

from __future__ import annotations

from collections.abc import Callable

from diagnose.proposers import Candidate, Proposal, Request, evidence_of, hypothesis_of

from .autotune import add_autotune_configs
from .axis import transpose_strided_tile
from .gemm import gemm_autotune_configs, gemm_tile_configs
from .grouping import add_grouped_ordering
from .hints import add_contiguity_hints, drop_do_not_specialize
from .indexing import drop_redundant_select, narrow_int64_index
from .launchloop import launch_loop_to_grid_axis
from .mathfns import bounded_error_erf
from .online import online_row_reduction
from .split import shrink_rows_per_program, widen_grid_stride
from .tma import tma_descriptor_loads, tma_persistent
from .tuning import retune_block_sizes, retune_input_precision, retune_num_stages, retune_num_warps
from .units import loop_to_grid_axis

Transformation = Callable[[str], list[Candidate]]

RULES: list[tuple[str, Transformation]] = [
    ("add-divisibility-hints", drop_do_not_specialize),
    ("add-divisibility-hints", add_contiguity_hints),
    ("vectorize-loads", add_contiguity_hints),
    ("int32-indexing", narrow_int64_index),
    ("drop-redundant-select", drop_redundant_select),
    ("block-size-tuning", gemm_tile_configs),
    ("block-size-tuning", retune_block_sizes),
    # a block the problem fixes (a whole row: next_power_of_2(n)) is tuned through its threads,
    # as the block-size card says: size num_warps to the tile
    ("block-size-tuning", retune_num_warps),
    # a GEMM's warps and stages are chosen with its tiles: the Hopper set first, then the plain search
    ("num-warps-tuning", gemm_tile_configs),
    ("num-warps-tuning", retune_num_warps),
    ("pipeline-stages", gemm_tile_configs),
    ("pipeline-stages", retune_num_stages),
    ("lower-precision-dot", retune_input_precision),
    # a GEMM's configs measured by the loop itself first: on the H200 (2026-12-01) the Hopper tile
    # 128x256x64/8/3 set as constants ran 0.204 ms at 4096^3 where the autotuner over the same set
    # ran 0.229 ms; the autotuned form is still tried once the fixed tiles were
    ("autotune-configs", gemm_tile_configs),
    ("autotune-configs", gemm_autotune_configs),
    ("autotune-configs", add_autotune_configs),
    ("split-work-across-programs", widen_grid_stride),
    ("split-work-across-programs", shrink_rows_per_program),
    ("split-work-across-programs", loop_to_grid_axis),
    ("one-launch-over-grid", launch_loop_to_grid_axis),
    ("l2-grouped-ordering", add_grouped_ordering),
    # descriptor loads in plain, grouped and persistent form, measured together; the persistent
    # form alone once those were tried (and where a tail wave names a persistent grid)
    ("tma-descriptors", tma_descriptor_loads),
    ("tma-descriptors", tma_persistent),
    ("persistent-kernel", tma_persistent),
    ("reduce-along-contiguous-axis", transpose_strided_tile),
    ("coalesce-contiguous-axis", transpose_strided_tile),
    ("online-row-reduction", online_row_reduction),
    ("precision-matched-math", bounded_error_erf),
]
MAX_CANDIDATES = 8


def transformations_for(family: str | None) -> list[Transformation]:
    return [fn for fam, fn in RULES if fam == family]


RANKED_FLOOR = 0.3  # a ranked family below this score is too weakly evidenced to act on


def propose(req: Request) -> Proposal:
    """The first transformation of the diagnosed family that changes this kernel; when the
    concluded family has none, the next family of the ladder's ranking that has one (its own
    findings become the evidence, and `fallback` says why the concluded family was passed over)."""
    conclusion = req.diagnosis.get("conclusion") or {}
    proposal = Proposal("rules", req.family, card_id=conclusion.get("card_id", ""),
                        hypothesis=hypothesis_of(req.diagnosis), evidence=evidence_of(req.diagnosis))
    reasons = []
    for rank, entry in enumerate(_families(req)):
        family, rules = entry["rewrite_family"], transformations_for(entry["rewrite_family"])
        if not rules:
            reasons.append(f"The rules proposer has no transformation for {family!r}")
            continue
        for fn in rules:
            if fn.__name__ in req.tried:
                continue
            candidates = _distinct(fn(req.kernel_source), req.kernel_source)
            if candidates:
                if rank:
                    _act_on_ranked(proposal, req.diagnosis, entry, "; ".join(reasons))
                proposal.transformation = fn.__name__
                proposal.candidates = candidates[:MAX_CANDIDATES]
                return proposal
        reasons.append(f"no transformation of {family} changes this kernel "
                       f"(tried {', '.join(fn.__name__ for fn in rules)})")
    why = "; ".join(reasons) or f"nothing for {req.family!r}"
    proposal.reason = (why[0].upper() + why[1:] + "."
                       + (" Try --proposer llm." if req.family and not transformations_for(req.family) else ""))
    return proposal


def _families(req: Request) -> list[dict]:
    """The concluded family first, then the ranking's other families with enough evidence."""
    out = [{"rewrite_family": req.family, "score": None}]
    seen = {req.family}
    for entry in req.diagnosis.get("ranking") or []:
        family = entry.get("rewrite_family")
        if family and family not in seen and (entry.get("score") or 0) >= RANKED_FLOOR:
            seen.add(family)
            out.append(entry)
    return out


def _act_on_ranked(proposal: Proposal, diagnosis: dict, entry: dict, why: str) -> None:
    """Re-point the proposal at a ranked family: its card, its findings, its message."""
    card = entry.get("card_id", "")
    findings = [f for t in diagnosis.get("tiers", []) for f in t.get("findings", [])
                if card and f.get("card_id") == card]
    proposal.fallback = (f"{why}; acting on the ladder's next ranked family {entry['rewrite_family']} "
                         f"(score {entry.get('score')}, tiers {', '.join(sorted(entry.get('by_tier', {})))})")
    proposal.family, proposal.card_id = entry["rewrite_family"], card
    proposal.evidence = [{"tier": f["tier"], "kind": f["kind"], "card_id": card,
                          "message": f.get("message", "")} for f in findings]
    if findings:
        proposal.hypothesis = findings[0].get("message", "")


def _distinct(candidates: list[Candidate], parent: str) -> list[Candidate]:
    seen, out = {parent}, []
    for c in candidates:
        if c.source not in seen:
            seen.add(c.source)
            out.append(c)
    return out
