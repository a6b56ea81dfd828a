"""Learned priors: the optimize runs' win record per rewrite family (PASSWISE_HOME/learned-cards/
priors.json, written by `passwise optimize --synthesize`) shifts tier 1's hypothesis confidences.

The rule: shift = MAX_SHIFT * (2 * win_rate - 1) * min(1, proposed / FULL_WEIGHT_ROUNDS), so a
family that won every one of >= 4 proposed rounds gains 0.1 and one that never won loses 0.1; fewer
rounds count proportionally. The shifted confidence stays in [FLOOR, CEILING] and never rises to
tier 1's sufficiency bar by the prior alone: a win record on other kernels reorders hypotheses
about this one, it is not evidence that this one has the idiom."""

from __future__ import annotations

import json
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path

from diagnose.evidence import Finding

PRIORS_FILE = Path("learned-cards") / "priors.json"
MAX_SHIFT = 0.1
FULL_WEIGHT_ROUNDS = 4
FLOOR, CEILING = 0.05, 0.99


class PriorsError(ValueError):
    """A learned-priors file that cannot be read; the message says which and what to do."""


@dataclass
class FamilyPrior:
    """One family's record across optimize runs and the confidence shift it earns."""

    family: str
    proposed: int
    accepted: int
    shift: float
    learned_cards: list[str] = field(default_factory=list)  # cards still awaiting a person

    @property
    def win_rate(self) -> float:
        return self.accepted / self.proposed if self.proposed else 0.0


def shift_for(proposed: int, accepted: int) -> float:
    if proposed <= 0:
        return 0.0
    weight = min(1.0, proposed / FULL_WEIGHT_ROUNDS)
    return round(MAX_SHIFT * (2 * accepted / proposed - 1) * weight, 4)


def load_priors(home: Path | None) -> dict[str, FamilyPrior]:
    """Family -> prior from HOME's priors.json; {} when there is no home or no file yet."""
    if home is None:
        return {}
    path = Path(home) / PRIORS_FILE
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        entries = {fam: (int(e["proposed"]), int(e["accepted"])) for fam, e in data.items() if fam}
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError):
        raise PriorsError(f"Learned priors {path} cannot be read as the priors.json that "
                          "`passwise optimize --synthesize` writes; remove it or synthesize again.") from None
    cards = _learned_cards(path.parent)
    return {fam: FamilyPrior(fam, p, a, shift_for(p, a), cards.get(fam, [])) for fam, (p, a) in entries.items()}


def _learned_cards(folder: Path) -> dict[str, list[str]]:
    """Family -> ids of learned cards nobody has accepted yet (status "learned", no accepted_by)."""
    out: dict[str, list[str]] = {}
    for path in sorted(folder.glob("*.toml")):
        try:
            card = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue  # a card a person is editing: its prior still counts, its id is not listed
        if card.get("status") == "learned" and not card.get("accepted_by"):
            out.setdefault(card.get("rewrite_family", ""), []).append(card.get("id", path.stem))
    return out


def apply_priors(findings: list[Finding], priors: dict[str, FamilyPrior], sufficient_at: float) -> int:
    """Shift each pattern finding's confidence by its family's prior, recording the static value
    and the record it came from under evidence["prior"]; returns how many moved."""
    moved = 0
    for f in findings:
        prior = priors.get(f.rewrite_family)
        if f.kind != "pattern" or prior is None or prior.shift == 0:
            continue
        static = f.confidence
        new = min(CEILING, max(FLOOR, static + prior.shift))
        if static < sufficient_at <= new:
            new = round(sufficient_at - 0.01, 4)  # the prior alone never makes tier 1 sufficient
        f.confidence = round(new, 4)
        f.evidence["prior"] = {"source": "learned", "static_confidence": static, **asdict(prior),
                               "win_rate": round(prior.win_rate, 3)}
        moved += f.confidence != static
    return moved
