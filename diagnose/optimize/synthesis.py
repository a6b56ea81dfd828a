"""Synthesis: mechanisms (rewrite family + transformation) accepted on two or more tasks become
learned pattern cards with provenance, and the families' win record becomes tier-1 priors.
A learned card is `status = "learned"` until a person accepts it (`accepted_by`)."""

from __future__ import annotations

import json
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .runs import RunRecord, write_once

MIN_TASKS = 2


@dataclass
class Win:
    task: str
    run_id: str
    round: int
    ratio: float
    backend: str
    card_id: str
    description: str
    diff: str


@dataclass
class LearnedCard:
    id: str
    backend: str
    rewrite_family: str
    transformation: str
    title: str
    wins: list[Win] = field(default_factory=list)

    @property
    def tasks(self) -> list[str]:
        return sorted({w.task for w in self.wins})

    @property
    def geomean(self) -> float:
        return math.exp(sum(math.log(w.ratio) for w in self.wins) / len(self.wins))

    def to_json(self) -> dict:
        return {"id": self.id, "backend": self.backend, "rewrite_family": self.rewrite_family,
                "transformation": self.transformation, "status": "learned", "accepted_by": "",
                "tasks": self.tasks, "geomean_speedup": round(self.geomean, 4),
                "provenance": [{"task": w.task, "run_id": w.run_id, "round": w.round,
                                "speedup": w.ratio, "based_on_card": w.card_id} for w in self.wins]}

    def to_toml(self, accepted_by: str = "") -> str:
        """The card file; `accepted_by` (kept from the file a person edited) marks it accepted."""
        first = self.wins[0]
        status_line = (f'status = "accepted"\naccepted_by = "{_esc(accepted_by)}"\n' if accepted_by else
                       'status = "learned"  # until a person accepts it: set accepted_by\naccepted_by = ""\n')
        prov = "\n".join(f'  {{ task = "{w.task}", run = "{w.run_id}", round = {w.round}, '
                         f'speedup = {w.ratio:.4f} }},' for w in self.wins)
        return (f'id = "{self.id}"\nbackend = "{self.backend}"\n{status_line}title = "{self.title}"\n'
                f'detector = ""\nrewrite_family = "{self.rewrite_family}"\n'
                f'transformation = "{self.transformation}"\n'
                f'symptom = "Verified faster on {len(self.tasks)} tasks by optimize runs."\n'
                f'expected_effect = "Geomean {self.geomean:.2f}x over the parent kernels it was '
                f'accepted on."\nrewrite = "{_esc(first.description)}"\n'
                f"provenance = [\n{prov}\n]\nexample_diff = '''\n{first.diff.replace(chr(39) * 3, '')}'''\n")


def _esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def wins_of(run: RunRecord) -> list[tuple[str, str, Win]]:
    """(family, transformation, win) for every accepted round of a run."""
    out = []
    settings = run.settings
    for rd in run.rounds():
        if rd.verdict != "accepted" or not rd.has("proposal.json"):
            continue
        proposal, verdict = rd.read("proposal.json"), rd.read("verdict.json")
        cand = next((c for c in proposal["candidates"] if c["id"] == verdict["candidate"]), {})
        diff = rd.text("kernel.diff") if rd.has("kernel.diff") else ""
        out.append((proposal.get("family") or "", proposal.get("transformation") or proposal["proposer"],
                    Win(settings["target"], run.run_id, rd.number, verdict["ratio"], settings["backend"],
                        proposal.get("card_id", ""), cand.get("description", ""), diff)))
    return out


def synthesize(runs: list[RunRecord]) -> list[LearnedCard]:
    """One learned card per (backend, family, transformation) accepted on >= MIN_TASKS tasks."""
    groups: dict[tuple[str, str, str], list[Win]] = {}
    for run in runs:
        for family, transformation, win in wins_of(run):
            groups.setdefault((win.backend, family, transformation), []).append(win)
    cards = []
    for (backend, family, transformation), wins in sorted(groups.items()):
        if len({w.task for w in wins}) >= MIN_TASKS:
            cards.append(LearnedCard(f"learned-{backend}-{family}-{transformation}".replace("_", "-"),
                                     backend, family, transformation,
                                     f"{family} by {transformation} (learned from optimize runs)", wins))
    return cards


def priors(runs: list[RunRecord]) -> dict:
    """Per family: rounds proposed, rounds accepted, tasks won and the geomean win; what tier 1's
    priors should reflect."""
    out: dict[str, dict] = {}
    for run in runs:
        for rd in run.rounds():
            if not rd.complete or not rd.has("proposal.json"):
                continue
            proposal = rd.read("proposal.json")
            if not proposal.get("candidates"):
                continue  # nothing was proposed: no evidence for or against the family
            fam = proposal.get("family") or ""
            entry = out.setdefault(fam, {"proposed": 0, "accepted": 0, "tasks": [], "log_sum": 0.0})
            entry["proposed"] += 1
            if rd.verdict == "accepted":
                entry["accepted"] += 1
                entry["tasks"] = sorted(set(entry["tasks"]) | {run.settings["target"]})
                entry["log_sum"] += math.log(rd.read("verdict.json")["ratio"])
    for entry in out.values():
        entry["win_rate"] = round(entry["accepted"] / entry["proposed"], 3) if entry["proposed"] else 0.0
        log_sum = entry.pop("log_sum")
        entry["geomean_win"] = round(math.exp(log_sum / entry["accepted"]), 4) if entry["accepted"] else None
    return out


def write_cards(cards: list[LearnedCard], folder: Path, runs: list[RunRecord] | None = None) -> list[Path]:
    """Each card as <id>.toml (pattern-card fields plus status/provenance) and priors.json."""
    paths = [write_once(folder / f"{c.id}.toml", c.to_toml(_accepted_by(folder / f"{c.id}.toml"))) for c in cards]
    if runs is not None:
        write_once(folder / "priors.json", json.dumps(priors(runs), indent=2))
    return paths


def _accepted_by(path: Path) -> str:
    """Who accepted the card at `path` before this synthesis (a person's edit survives a rerun)."""
    try:
        return str(tomllib.loads(path.read_text(encoding="utf-8")).get("accepted_by", ""))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ""
