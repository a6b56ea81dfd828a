"""Static detectors of slow Triton idioms. Each detector reads a `KernelModule` and returns
`Match`es: hypotheses with a location, a confidence and what higher tiers must confirm."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from diagnose.triage.detectors.model import KernelModule


@dataclass
class Match:
    """One place where a detector's idiom appears. A hypothesis, not a verdict."""

    detector: str
    function: str
    line: int
    snippet: str
    confidence: float
    message: str
    evidence_needed: list[str] = field(default_factory=list)
    facts: dict[str, object] = field(default_factory=dict)
    end_line: int | None = None  # last line of the matched statement (a loop spans its body)


DetectorFn = Callable[[KernelModule, str], list[Match]]


@dataclass(frozen=True)
class Detector:
    id: str
    backends: tuple[str, ...]
    run: DetectorFn


REGISTRY: dict[str, Detector] = {}


def detector(detector_id: str, backends: tuple[str, ...] = ("cuda", "ascend")
             ) -> Callable[[DetectorFn], DetectorFn]:
    """Register a detector function under a stable id that pattern cards refer to."""
    def register(fn: DetectorFn) -> DetectorFn:
        REGISTRY[detector_id] = Detector(detector_id, backends, fn)
        return fn
    return register


def all_detectors() -> dict[str, Detector]:
    # Importing the families fills REGISTRY; kept here so callers need one import.
    from diagnose.triage.detectors import ascend, compute, host, launch, masks, math, memory, rows  # noqa: F401
    return REGISTRY
