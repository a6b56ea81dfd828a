"""Watch what the candidate runs: every torch operator it reaches while run() executes, however the
name was built (getattr, eval, importlib), and every fresh allocation it makes.

A TorchDispatchMode sees each ATen operator. Allocation, view and metadata operators pass (fresh
uninitialised allocations are filled with a poison pattern first, so an output the kernels never
wrote cannot hold a stale right answer); any other operator called from the candidate's code is a
`torch_fallback` naming the operator and the candidate's line. Triton's own launch code (copying
arguments for the interpreter, autotuner resets) runs while a launch is in progress and is trusted.
Handing tensor contents to the host (`.numpy()`, `__array__`, `__dlpack__`, `.tolist()`), which no
ATen operator shows on the CPU, is refused the same way (those Tensor methods are wrapped once per
child; a TorchFunctionMode would import torch._dynamo, seconds per child).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

from .trust import Trust, where

ALLOCATION = {
    "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "zeros", "zeros_like",
    "new_zeros", "full", "full_like", "new_full", "ones", "ones_like", "new_ones", "scalar_tensor",
    "zero_", "fill_", "resize_",
}
UNINITIALISED = {"empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided"}
VIEW = {
    "view", "_unsafe_view", "_reshape_alias", "as_strided", "t", "transpose", "permute", "expand",
    "squeeze", "unsqueeze", "slice", "select", "narrow", "split", "split_with_sizes", "unbind",
    "chunk", "alias", "detach", "view_as_real", "view_as_complex", "diagonal", "unflatten",
    "movedim", "unfold", "lift_fresh", "real", "imag", "view_as", "expand_as", "_conj", "conj",
}
METADATA = {
    "sym_size", "sym_stride", "sym_numel", "sym_storage_offset", "size", "stride", "numel", "dim",
    "is_contiguous", "is_same_size", "_local_scalar_dense", "record_stream", "is_non_overlapping_and_dense",
    "_has_compatible_shallow_copy_type", "is_pinned",
}
ALLOWED = ALLOCATION | VIEW | METADATA
HOST_EXPORTS = {"numpy", "__array__", "__dlpack__", "tolist"}


class TorchFallbackDetected(BaseException):  # noqa: N818 - BaseException so `except Exception` in a candidate cannot swallow it
    """Raised in the candidate at the first refused operator."""


@dataclass
class OpFinding:
    """One refused torch operator and where the candidate called it."""

    op: str
    at: str | None

    def sentence(self) -> str:
        return f"run() computed with torch at run time: {self.op}{' at ' + self.at if self.at else ''}"


_launch = {"depth": 0}


def in_launch() -> bool:
    return _launch["depth"] > 0


def track_launches() -> None:
    """Count Triton launches in progress (JIT, interpreter, autotuner, heuristics), once per process."""
    classes = []
    from triton.runtime import autotuner, jit

    classes += [jit.JITFunction, autotuner.Autotuner, autotuner.Heuristics]
    interp = sys.modules.get("triton.runtime.interpreter")
    if interp is not None:
        classes += [interp.InterpretedFunction, interp.GridExecutor]
    for cls in classes:
        name = "__call__" if cls.__name__ == "GridExecutor" else "run"
        original = cls.__dict__.get(name)
        if original is None or getattr(original, "_passwise_tracked", False):
            continue
        setattr(cls, name, _tracked(original))


def _tracked(original: Any) -> Any:
    def run(*args: Any, **kwargs: Any) -> Any:
        _launch["depth"] += 1
        try:
            return original(*args, **kwargs)
        finally:
            _launch["depth"] -= 1

    run._passwise_tracked = True  # type: ignore[attr-defined]
    run.__wrapped__ = original  # type: ignore[attr-defined]
    return run


@dataclass
class Watch:
    """Both modes for one candidate call; findings survive a candidate that catches the exception."""

    trust: Trust
    candidate: str | None
    poison: bool = True
    findings: list[OpFinding] = field(default_factory=list)
    allocations: int = 0

    def __enter__(self) -> Watch:
        self._mode = _OpMode(self)
        self._mode.__enter__()
        _active.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        _active.remove(self)
        self._mode.__exit__(None, None, None)

    def untrusted(self, depth: int) -> Any:
        """The frame to blame for this call, or None when it is trusted: torch or the stdlib alone,
        or Triton's own code while a launch is in progress (outside a launch, Triton helpers called by
        the candidate are the candidate's doing)."""
        decider = self.trust.decider(sys._getframe(depth + 1))
        if decider is None:
            return None
        if self.trust.is_trusted_file(decider.f_code.co_filename) and in_launch():
            return None
        return decider

    def refuse(self, op: str, frame: Any) -> None:
        self.findings.append(OpFinding(op, where(frame, self.candidate).removeprefix(" at ") or None))
        raise TorchFallbackDetected(self.findings[-1].sentence())


def _op_mode_class() -> type:
    from torch.utils._python_dispatch import TorchDispatchMode

    class OpMode(TorchDispatchMode):
        def __init__(self, watch: Watch) -> None:
            super().__init__()
            self.watch = watch

        def __torch_dispatch__(self, func: Any, types: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
            kwargs = kwargs or {}
            name = func.overloadpacket.__name__
            if name in ALLOWED and not (name == "fill_" and _tensor_value(args)):
                out = func(*args, **kwargs)
                if name in UNINITIALISED and self.watch.poison and self.watch.untrusted(1) is not None:
                    _poison(out)
                    self.watch.allocations += 1
                return out
            frame = self.watch.untrusted(1)
            if frame is None:
                return func(*args, **kwargs)
            self.watch.refuse(f"{func}", frame)

    # torch wraps __torch_dispatch__ in _disable_dynamo, whose first call imports torch._dynamo
    # (seconds, and it sets environment variables inside the sandbox); our mode never runs under dynamo.
    raw = OpMode.__dict__["__torch_dispatch__"]
    OpMode.__torch_dispatch__ = getattr(raw, "__wrapped__", raw)
    return OpMode


_active: list[Watch] = []


def guard_host_exports() -> None:
    """Wrap the Tensor methods that copy contents to the host, once per process."""
    import torch

    for name in HOST_EXPORTS:
        original = getattr(torch.Tensor, name, None)
        if original is None or getattr(original, "_passwise_guarded", False):
            continue
        setattr(torch.Tensor, name, _guarded_export(name, original))


def _guarded_export(name: str, original: Any) -> Any:
    def export(*args: Any, **kwargs: Any) -> Any:
        if _active:
            frame = _active[-1].untrusted(1)
            if frame is not None:
                _active[-1].refuse(f"Tensor.{name} (copying tensor contents to the host)", frame)
        return original(*args, **kwargs)

    export._passwise_guarded = True  # type: ignore[attr-defined]
    return export


_classes: dict[str, type] = {}


def _OpMode(watch: Watch) -> Any:  # noqa: N802 - builds the mode lazily: torch is imported in the child only
    if "op" not in _classes:
        _classes["op"] = _op_mode_class()
    return _classes["op"](watch)


def _tensor_value(args: tuple) -> bool:
    """fill_(tensor) copies a computed value; fill_(scalar) is initialisation."""
    import torch

    return len(args) > 1 and isinstance(args[1], torch.Tensor)


def _poison(t: Any) -> None:
    """NaN for floating point, the largest value for integers, True for bool."""
    import torch

    if not isinstance(t, torch.Tensor) or t.numel() == 0:
        return
    if t.is_floating_point() or t.is_complex():
        t.fill_(float("nan"))
    elif t.dtype == torch.bool:
        t.fill_(True)
    else:
        t.fill_(torch.iinfo(t.dtype).max)
