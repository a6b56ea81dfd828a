"""What a call may not do to its inputs and outputs: change the inputs (unless the task says it works
in place), return a view of an input where the reference does not, return a Tensor subclass.
Also the refill that re-runs a candidate on the same buffers with new data.
"""

from __future__ import annotations

from typing import Any

INT_OF_SIZE = {1: "uint8", 2: "int16", 4: "int32", 8: "int64"}


def tensors(values: Any) -> list[tuple[int, Any]]:
    """(position, tensor) for each tensor in a tuple of inputs or outputs."""
    import torch

    items = values if isinstance(values, tuple | list) else (values,)
    return [(i, v) for i, v in enumerate(items) if isinstance(v, torch.Tensor)]


def snapshot(inputs: tuple) -> list[tuple[int, Any]]:
    """Bit-exact copies of the tensor inputs, kept by the runner (not reachable from the candidate)."""
    return [(i, _bits(t).clone()) for i, t in tensors(inputs)]


def changed_inputs(inputs: tuple, before: list[tuple[int, Any]], inplace: set[int]) -> list[int]:
    """Positions of inputs whose bits differ from the snapshot (in-place inputs excepted)."""
    import torch

    now = dict(tensors(inputs))
    return [i for i, old in before if i not in inplace and not torch.equal(_bits(now[i]), old)]


def _bits(t: Any) -> Any:
    """The tensor viewed as integers of the same width, so NaN == NaN and -0.0 != 0.0."""
    import torch

    if t.dtype == torch.bool or t.is_complex() or t.element_size() not in INT_OF_SIZE:
        return t.detach()
    try:
        return t.detach().view(getattr(torch, INT_OF_SIZE[t.element_size()]))
    except RuntimeError:
        return t.detach()


def storage_spans(values: Any) -> list[tuple[int, int, int]]:
    """(position, first byte, last byte) of each tensor's storage."""
    spans = []
    for i, t in tensors(values):
        storage = t.untyped_storage()
        start = storage.data_ptr()
        spans.append((i, start, start + max(storage.nbytes(), 1)))
    return spans


def aliases(outputs: Any, inputs: tuple) -> dict[int, int]:
    """output position -> input position for outputs whose storage overlaps an input's."""
    found: dict[int, int] = {}
    ins = storage_spans(inputs)
    for o, start, end in storage_spans(outputs):
        for i, s, e in ins:
            if start < e and s < end:
                found.setdefault(o, i)
    return found


def subclass_outputs(outputs: Any) -> list[tuple[int, str]]:
    """Outputs that are torch.Tensor subclasses (which could answer the comparison themselves)."""
    import torch

    return [(i, type(t).__name__) for i, t in tensors(outputs) if type(t) is not torch.Tensor]


def refill(buffers: tuple, fresh: tuple) -> bool:
    """Copy fresh inputs into the existing buffers; False when shapes or dtypes differ."""
    import torch

    pairs = list(zip(tensors(buffers), tensors(fresh), strict=False))
    if len(pairs) != len(tensors(buffers)) or len(tensors(buffers)) != len(tensors(fresh)):
        return False
    for (_, old), (_, new) in pairs:
        if old.shape != new.shape or old.dtype != new.dtype:
            return False
    with torch.no_grad():
        for (_, old), (_, new) in pairs:
            old.copy_(new)
    return True


def with_buffers(buffers: tuple, fresh: tuple) -> tuple:
    """fresh's values with its tensors replaced by the refilled buffers (scalars taken from fresh)."""
    import torch

    it = iter(t for _, t in tensors(buffers))
    return tuple(next(it) if isinstance(v, torch.Tensor) else v for v in fresh)
