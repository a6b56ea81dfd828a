"""Who is calling: the runner's trusted code (torch, triton, numpy, the stdlib, the runner itself) or
the candidate (and anything it runs: its own files, code built with exec, the task's callbacks).

The child asks this on every watched torch operator and every audited action. The answer comes
from the Python call stack: the innermost frame that is not torch or the standard library decides.
Frames can only claim another file through code objects or compile(), which the sandbox refuses.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from types import FrameType


def _roots(*paths: str | None) -> tuple[str, ...]:
    out: list[str] = []
    for p in paths:
        if p:
            for form in (p, os.path.realpath(p)):
                form = form.rstrip(os.sep) + os.sep
                if form not in out:
                    out.append(form)
    return tuple(out)


def _package_dir(name: str) -> str | None:
    module = sys.modules.get(name)
    return os.path.dirname(module.__file__) if module is not None and getattr(module, "__file__", None) else None


class Trust:
    """Which source files are transparent (torch, stdlib) and which are trusted deciders."""

    def __init__(self) -> None:
        paths = sysconfig.get_paths()
        self.transparent = _roots(paths.get("stdlib"), paths.get("platstdlib"), _package_dir("torch"))
        # Inductor's generated wrappers (TORCHINDUCTOR_CACHE_DIR, outside the candidate's folder, so
        # written by torch only) hold torch-made code: dynamo leaves a function's Python side
        # effects in that function's own frames. Without them, the torch.compile reference blamed
        # its own cache folder and compiler probes on the candidate.
        self.trusted = _roots(_package_dir("triton"), _package_dir("numpy"),
                              os.path.dirname(os.path.abspath(__file__)),
                              os.environ.get("TORCHINDUCTOR_CACHE_DIR"))
        self.runner_dir = os.path.dirname(os.path.abspath(__file__)) + os.sep

    def is_transparent(self, filename: str) -> bool:
        return filename.startswith("<frozen") or filename.startswith(self.transparent)

    def is_trusted_file(self, filename: str) -> bool:
        return filename.startswith(self.trusted)

    def decider(self, frame: FrameType | None) -> FrameType | None:
        """The innermost frame outside torch and the stdlib; None when there is none."""
        while frame is not None and self.is_transparent(frame.f_code.co_filename):
            frame = frame.f_back
        return frame

    def untrusted_frame(self, frame: FrameType | None) -> FrameType | None:
        """The deciding frame when it is not trusted code, else None."""
        decider = self.decider(frame)
        if decider is None or self.is_trusted_file(decider.f_code.co_filename):
            return None
        return decider


def where(frame: FrameType | None, candidate: str | None) -> str:
    """' at cand.py:12' for the innermost candidate frame at or above frame, else the frame itself."""
    first = frame
    target = os.path.realpath(candidate) if candidate else None
    while frame is not None:
        if target and os.path.realpath(frame.f_code.co_filename) == target:
            return f" at {os.path.basename(target)}:{frame.f_lineno}"
        frame = frame.f_back
    if first is None:
        return ""
    return f" at {os.path.basename(first.f_code.co_filename)}:{first.f_lineno}"
