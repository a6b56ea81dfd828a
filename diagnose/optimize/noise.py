"""The noise model: repeated, interleaved timings of parent and candidate -> a one-sided
confidence bound on the speedup (docs/runs.md "Acceptance and the noise model")."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

# One-sided Student t quantiles at 0.95 by degrees of freedom (df 0 stands for "one repeat").
T95 = {0: 1.645, 1: 6.314, 2: 2.920, 3: 2.353, 4: 2.132, 5: 2.015, 6: 1.943, 7: 1.895,
       8: 1.860, 9: 1.833}
MIN_GAIN = 0.01


@dataclass
class Timing:
    """One runner bench measurement: the median and the within-call spread (p20, p80)."""

    median_ms: float
    p20_ms: float | None = None
    p80_ms: float | None = None

    @property
    def log_spread(self) -> float:
        """Half the log width of the p20..p80 band: how noisy this one call was."""
        if self.p20_ms and self.p80_ms and self.p20_ms > 0:
            return max(0.0, math.log(self.p80_ms / self.p20_ms) / 2)
        return 0.0


@dataclass
class RatioBound:
    """parent/candidate speedup (geometric mean over repeats) with its confidence bound."""

    ratio: float
    lower: float
    upper: float
    repeats: int

    def beats_noise(self, min_gain: float = MIN_GAIN) -> bool:
        return self.lower > 1.0 + min_gain

    def to_json(self) -> dict:
        return {"ratio": round(self.ratio, 4), "lower": round(self.lower, 4),
                "upper": round(self.upper, 4), "repeats": self.repeats}


def ratio_bound(parent: list[Timing], candidate: list[Timing]) -> RatioBound | None:
    """Pair repeat r of the parent with repeat r of the candidate; None with no complete pair."""
    pairs = [(p, c) for p, c in zip(parent, candidate, strict=False)
             if p.median_ms > 0 and c.median_ms > 0]
    if not pairs:
        return None
    logs = [math.log(p.median_ms / c.median_ms) for p, c in pairs]
    mean = sum(logs) / len(logs)
    floor = max(c.log_spread for _, c in pairs)
    sd = max(statistics.stdev(logs) if len(logs) > 1 else 0.0, floor)
    t = T95.get(len(logs) - 1, 1.8)
    half = t * sd / math.sqrt(len(logs))
    return RatioBound(math.exp(mean), math.exp(mean - half), math.exp(mean + half), len(logs))
