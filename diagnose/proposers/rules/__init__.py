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
from .split import shrink_rows_per_program, widen_grid_stride
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
    # a GEMM's warps and stages are chosen with its tiles: the Hopper set first, then the plain search
    ("num-warps-tuning", gemm_tile_configs),
    ("num-warps-tuning", retune_num_warps),
    ("pipeline-stages", gemm_tile_configs),
    ("pipeline-stages", retune_num_stages),
    ("lower-precision-dot", retune_input_precision),
    ("autotune-configs", gemm_autotune_configs),
    ("autotune-configs", add_autotune_configs),
    ("split-work-across-programs", widen_grid_stride),
    ("split-work-across-programs", shrink_rows_per_program),
    ("split-work-across-programs", loop_to_grid_axis),
    ("one-launch-over-grid", launch_loop_to_grid_axis),
    ("l2-grouped-ordering", add_grouped_ordering),
    ("reduce-along-contiguous-axis", transpose_strided_tile),
    ("coalesce-contiguous-axis", transpose_strided_tile),
]
MAX_CANDIDATES = 8


def transformations_for(family: str | None) -> list[Transformation]:
    return [fn for fam, fn in RULES if fam == family]


def propose(req: Request) -> Proposal:
    """The first transformation of the diagnosed family that changes this kernel."""
    conclusion = req.diagnosis.get("conclusion") or {}
    proposal = Proposal("rules", req.family, card_id=conclusion.get("card_id", ""),
                        hypothesis=hypothesis_of(req.diagnosis), evidence=evidence_of(req.diagnosis))
    rules = transformations_for(req.family)
    if not rules:
        proposal.reason = (f"The rules proposer has no transformation for {req.family!r}; "
                           "try --proposer llm.")
        return proposal
    for fn in rules:
        if fn.__name__ in req.tried:
            continue
        candidates = _distinct(fn(req.kernel_source), req.kernel_source)
        if candidates:
            proposal.transformation = fn.__name__
            proposal.candidates = candidates[:MAX_CANDIDATES]
            return proposal
    tried = ", ".join(fn.__name__ for fn in rules)
    proposal.reason = f"No transformation of {req.family} changes this kernel (tried {tried})."
    return proposal


def _distinct(candidates: list[Candidate], parent: str) -> list[Candidate]:
    seen, out = {parent}, []
    for c in candidates:
        if c.source not in seen:
            seen.add(c.source)
            out.append(c)
    return out
