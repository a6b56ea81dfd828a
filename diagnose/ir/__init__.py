"""Tier 3 of the diagnosis ladder: pass-by-pass IR capture and symptom attribution."""

from .errors import IRCaptureError
from .model import (
    CompileFailure,
    IRCapture,
    KernelIR,
    Stage,
    StageDiff,
    StageSignature,
    Symptom,
    capture_from_json,
    to_json,
)

__all__ = ["CompileFailure", "IRCapture", "IRCaptureError", "KernelIR", "Stage", "StageDiff",
           "StageSignature", "Symptom", "capture_from_json", "to_json", "capture_cuda",
           "attribute", "capture_ascend"]


def __getattr__(name: str):
    # Imported lazily so `import diagnose.ir` stays light (diagnose/__init__ imports nothing heavy).
    if name == "capture_cuda":
        from .cuda import capture_cuda
        return capture_cuda
    if name == "attribute":
        from .attribute import attribute
        return attribute
    if name == "capture_ascend":
        from .ascend import capture_ascend
        return capture_ascend
    raise AttributeError(name)
