"""Probes: inputs beyond the task's own sizes, so kernels tuned to the test data are caught.

* `ragged`: the case's size with every dimension the task lets be ragged (one that some size of the
  task sets to a non-multiple of 16) moved off multiples of 16/64/128;
* `large_magnitude`: the case's inputs with every floating-point tensor scaled by 256 (or 16, or 4:
  the largest power of two where the reference stays finite wherever it was finite), which breaks a
  softmax without the max subtraction or an activation that overflows. It is an overflow probe:
  NaN/Inf where the reference is finite fail it, value differences do not (scaling makes nonlinear
  ops ill-conditioned: near-ties in attention, saturated softmax ties in top-k indices);
* `task:NAME`: a probe the task declares in META["probes"] (see docs/task-format.md).
A probe the task cannot express (make_inputs or the reference raise on it) is `not_applicable`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

RAGGED_STEPS = (3, 5, 7, 2, 6, 1)
SCALES = (256.0, 16.0, 4.0)


class ProbeNotApplicable(Exception):
    """The task cannot build this probe; the case is reported as not_applicable."""


@dataclass
class ProbeCase:
    inputs: tuple
    want: Any
    detail: str
    atol_scale: float = 1.0


def probe_names(meta: dict) -> list[str]:
    """The generic probes, then the task's own."""
    return ["ragged", "large_magnitude"] + [f"task:{p['name']}" for p in meta.get("probes", [])]


def build(name: str, module: Any, size: str, device: str, seed: int, dtype: str | None,
          reference: Any) -> ProbeCase:
    """Inputs and reference output of one probe (raises ProbeNotApplicable)."""
    meta = getattr(module, "META", None)
    if not isinstance(meta, dict) or size not in meta.get("sizes", {}):
        raise ProbeNotApplicable("the task has no named sizes to vary")
    if name == "ragged":
        return _ragged(module, meta, size, device, seed, dtype, reference)
    if name == "large_magnitude":
        return _scaled(_inputs(module, size, device, seed, dtype), reference, SCALES)
    declared = {p["name"]: p for p in meta.get("probes", [])}
    spec = declared.get(name.removeprefix("task:"))
    if spec is None:
        raise ProbeNotApplicable(f"the task declares no probe {name}")
    dims = {**meta["sizes"][size], **spec.get("size", {})}
    inputs = _inputs(module, _register(meta, name, dims), device, seed, dtype)
    detail = ", ".join(f"{k}={v}" for k, v in spec.get("size", {}).items())
    if spec.get("scale"):
        case = _scaled(inputs, reference, (float(spec["scale"]),))
        case.detail = ", ".join(x for x in (detail, case.detail) if x)
        return case
    return ProbeCase(inputs, _reference(reference, inputs), detail or "task inputs")


def _register(meta: dict, name: str, dims: dict) -> str:
    key = f"__probe_{name}"
    meta["sizes"][key] = dims
    return key


def _inputs(module: Any, size: str, device: str, seed: int, dtype: str | None) -> tuple:
    try:
        return tuple(module.make_inputs(size, device=device, seed=seed, dtype=dtype))
    except Exception as exc:
        raise ProbeNotApplicable(f"make_inputs raised {type(exc).__name__}") from exc


def _reference(reference: Any, inputs: tuple) -> Any:
    from .integrity import tensors

    clones = tuple(x.clone() if i in dict(tensors(inputs)) else x for i, x in enumerate(inputs))
    try:
        return reference(*clones)
    except Exception as exc:
        raise ProbeNotApplicable(f"the reference raised {type(exc).__name__}") from exc


def raggable(meta: dict) -> list[str]:
    """Integer dimensions that some size of the task sets to a non-multiple of 16."""
    sizes = [s for s in meta["sizes"].values() if isinstance(s, dict)]
    names = {k for s in sizes for k, v in s.items() if isinstance(v, int) and not isinstance(v, bool)}
    return sorted(k for k in names if any(isinstance(s.get(k), int) and s[k] > 1 and s[k] % 16 for s in sizes))


def _ragged(module: Any, meta: dict, size: str, device: str, seed: int, dtype: str | None,
            reference: Any) -> ProbeCase:
    base = meta["sizes"][size]
    dims = [k for k in raggable(meta) if isinstance(base.get(k), int) and base[k] > 1]
    if not dims:
        raise ProbeNotApplicable("no dimension of the task may be ragged")
    last: Exception | None = None
    for step in RAGGED_STEPS:
        new = {k: _off_grid(base[k], step) for k in dims}
        key = _register(meta, "ragged", {**base, **new})
        try:
            inputs = _inputs(module, key, device, seed, dtype)
            return ProbeCase(inputs, _reference(reference, inputs), ", ".join(f"{k}={v}" for k, v in new.items()))
        except ProbeNotApplicable as exc:
            last = exc
    raise ProbeNotApplicable(f"no ragged variant of size {size} is valid for the task ({last})")


def _off_grid(d: int, step: int) -> int:
    v = d + step
    while v % 16 == 0:
        v += 1
    return v


def _scaled(inputs: tuple, reference: Any, scales: tuple[float, ...]) -> ProbeCase:

    from .integrity import tensors

    floats = [i for i, t in tensors(inputs) if t.is_floating_point()]
    if not floats:
        raise ProbeNotApplicable("the task has no floating-point inputs to scale")
    base = _reference(reference, inputs)
    for s in scales:
        scaled = tuple(x * s if i in floats else x for i, x in enumerate(inputs))
        try:
            want = _reference(reference, scaled)
        except ProbeNotApplicable:
            continue
        if _finite_where(base, want):
            grow = _peak(want) / max(_peak(base), 1e-30)
            return ProbeCase(scaled, want, f"floating-point inputs x{s:g}", atol_scale=max(1.0, grow))
    raise ProbeNotApplicable("the reference overflows at every scale tried")


def _finite_where(base: Any, want: Any) -> bool:
    import torch

    from .integrity import tensors

    for (_, b), (_, w) in zip(tensors(base), tensors(want), strict=False):
        if b.is_floating_point() and bool((torch.isfinite(b) & ~torch.isfinite(w)).any()):
            return False
    return True


def _peak(out: Any) -> float:

    from .integrity import tensors

    peaks = [float(t.double().abs().nan_to_num(0, 0, 0).max()) for _, t in tensors(out)
             if t.is_floating_point() and t.numel()]
    return max(peaks, default=0.0)
