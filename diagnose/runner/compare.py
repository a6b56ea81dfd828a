"""Compare a candidate's outputs with the reference: shape, dtype, strides, NaN/Inf, error, allclose."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass
class OutputCheck:
    """How one output tensor compares with the reference."""

    index: int
    shape: list[int]
    dtype: str
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    mismatched: int = 0          # elements outside atol + rtol * |ref|
    numel: int = 0
    nan: int = 0                 # NaN/Inf in the candidate where the reference is finite
    inf: int = 0
    problem: str | None = None   # one sentence when this output fails

    def to_json(self) -> dict:
        return asdict(self)


def as_tuple(out: Any) -> tuple:
    return tuple(out) if isinstance(out, tuple | list) else (out,)


def compare_outputs(got: Any, want: Any, atol: float, rtol: float) -> list[OutputCheck]:
    """One OutputCheck per reference output; problem is set on the failing ones."""
    import torch

    got_t, want_t = as_tuple(got), as_tuple(want)
    if len(got_t) != len(want_t):
        return [OutputCheck(0, [], "", problem=f"run() returned {len(got_t)} outputs, the reference returns {len(want_t)}")]
    checks = []
    for i, (g, w) in enumerate(zip(got_t, want_t, strict=True)):
        if not isinstance(g, torch.Tensor):
            checks.append(OutputCheck(i, [], type(g).__name__, problem=f"output {i} is a {type(g).__name__}, not a tensor"))
            continue
        checks.append(_compare_tensor(i, g, w, atol, rtol))
    return checks


def _compare_tensor(i: int, g: Any, w: Any, atol: float, rtol: float) -> OutputCheck:
    import torch

    check = OutputCheck(i, list(g.shape), str(g.dtype).removeprefix("torch."), numel=g.numel())
    if g.shape != w.shape:
        check.problem = f"output {i} has shape {tuple(g.shape)}, expected {tuple(w.shape)}"
        return check
    if g.dtype != w.dtype:
        check.problem = f"output {i} has dtype {check.dtype}, expected {str(w.dtype).removeprefix('torch.')}"
        return check
    if g.device != w.device:
        check.problem = f"output {i} is on {g.device}, expected {w.device}"
        return check
    if w.is_contiguous() and not g.is_contiguous() and g.numel() > 1:
        check.problem = f"output {i} has strides {tuple(g.stride())}, expected contiguous {tuple(w.stride())}"
        return check
    exact = not (w.is_floating_point() or w.is_complex())
    if w.is_complex():
        g, w = torch.view_as_real(g), torch.view_as_real(w)
    g64, w64 = g.to(torch.float64), w.to(torch.float64)
    finite_ref = torch.isfinite(w64)
    check.nan = int((torch.isnan(g64) & finite_ref).sum())
    check.inf = int((torch.isinf(g64) & finite_ref).sum())
    # Where the reference is Inf/NaN the candidate must match it exactly (NaN equals NaN here).
    same = (g64 == w64) | (torch.isnan(g64) & torch.isnan(w64))
    inf = torch.tensor(float("inf"), dtype=torch.float64, device=g64.device)
    diff = torch.where(finite_ref, (g64 - w64).abs(), torch.where(same, 0.0, inf))
    diff = torch.nan_to_num(diff, nan=float("inf"))
    ref_abs = torch.where(finite_ref, w64.abs(), 0.0)
    if g.numel():
        check.max_abs_err = float(diff.max())
        check.max_rel_err = float(torch.where(ref_abs == 0, diff, diff / ref_abs.clamp_min(1e-300)).max())
    atol, rtol = (0.0, 0.0) if exact else (atol, rtol)
    bad = ~(diff <= atol + rtol * ref_abs)
    check.mismatched = int(bad.sum())
    if check.nan or check.inf:
        check.problem = f"output {i} has {check.nan} NaN and {check.inf} Inf values where the reference is finite"
    elif check.mismatched:
        check.problem = (
            f"output {i} differs from the reference in {check.mismatched} of {check.numel} elements, "
            f"by up to {check.max_abs_err:.3g} (atol {atol:g}, rtol {rtol:g})"
        )
    return check
