"""Tier 3 of the diagnosis ladder: pass-by-pass IR capture and symptom attribution; `tier.py` is
the ladder's entry (an IRCapture and its symptoms turned into one TierResult).

Imports only the standard library here; torch and triton live in the capture subprocesses.
"""

from .ascend import capture_ascend
from .ascend_env import ensure_ascend_env
from .cuda import capture_cuda
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
from .symptoms import attribute

__all__ = ["CompileFailure", "IRCapture", "IRCaptureError", "KernelIR", "Stage", "StageDiff",
           "StageSignature", "Symptom", "attribute", "capture_ascend", "capture_cuda",
           "capture_from_json", "ensure_ascend_env", "to_json"]
