"""The Runs pages: optimize runs read from their folders (docs/runs.md) — the lineage of rounds
as a tree, each round's verdict and timing, and the passes behind each accepted rewrite."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, render_template

from web.pages import house
from web.render import side_by_side

bp = Blueprint("runs", __name__)
RUN_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}$")
ROUND = re.compile(r"^\d{2}$")


@dataclass
class Round:
    """One round folder, as far as it got."""

    number: int
    parent: int | None
    verdict: str = ""
    reason: str = ""
    ratio: float | None = None
    parent_ms: float | None = None
    kernel_ms: float | None = None
    family: str = ""
    transformation: str = ""
    passes: list[str] = field(default_factory=list)
    citations: list[dict] = field(default_factory=list)
    roofline_ms: float | None = None
    children: list[Round] = field(default_factory=list)

    def to_json(self) -> dict:
        d = dict(self.__dict__)
        d["children"] = [c.number for c in self.children]
        return d


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def list_runs(root: Path) -> list[dict]:
    """Every run folder's run.json and summary.json headline, newest first."""
    rows = []
    for d in sorted(root.glob("*/run.json"), reverse=True):
        run, summary = _json(d), _json(d.parent / "summary.json") or {}
        if isinstance(run, dict) and RUN_ID.match(d.parent.name):
            rows.append({"run_id": d.parent.name, "target": run.get("target", ""),
                         "proposer": run.get("proposer", ""), "created": run.get("created", ""),
                         "status": summary.get("status", "running"),
                         "best_vs_input": summary.get("best_vs_input"),
                         "rounds_done": summary.get("rounds_done")})
    return rows


def load_run(root: Path, run_id: str) -> dict[str, Any] | None:
    """run.json, summary.json and every round of the run (None: no such run)."""
    if not RUN_ID.match(run_id or ""):
        return None
    folder = root / run_id
    run = _json(folder / "run.json")
    if not isinstance(run, dict):
        return None
    rounds = [read_round(p) for p in sorted((folder / "rounds").glob("*"))
              if p.is_dir() and ROUND.match(p.name)]
    by_number = {r.number: r for r in rounds}
    for r in rounds:
        if r.parent in by_number and r.parent != r.number:
            by_number[r.parent].children.append(r)
    best = _text(folder / "best.py")
    given = _text(folder / "input.py")
    return {"run": run, "summary": _json(folder / "summary.json") or {}, "rounds": rounds,
            "roots": [r for r in rounds if r.parent not in by_number],
            "diff": side_by_side(given, best, 3) if best and given and best != given else []}


def read_round(folder: Path) -> Round:
    meta = _json(folder / "round.json") or {}
    verdict = _json(folder / "verdict.json") or {}
    proposal = _json(folder / "proposal.json") or {}
    diagnosis = _json(folder / "diagnosis.json") or {}
    conclusion = diagnosis.get("conclusion") or {}
    return Round(number=int(folder.name), parent=meta.get("parent"),
                 verdict=verdict.get("verdict", "pending"), reason=verdict.get("reason", ""),
                 ratio=verdict.get("ratio"), parent_ms=verdict.get("parent_ms"),
                 kernel_ms=verdict.get("kernel_ms"), family=proposal.get("family") or "",
                 transformation=proposal.get("transformation") or "",
                 passes=list(conclusion.get("passes") or []),
                 citations=_json(folder / "passages.json") or [],
                 roofline_ms=_roofline_ms(diagnosis))


def _roofline_ms(diagnosis: dict) -> float | None:
    """The roofline time tier 2 measured for the hotspot size (its `floor_us`), when the
    diagnosis climbed that far (docs/profiling.md)."""
    for tier in diagnosis.get("tiers", []):
        for f in tier.get("findings", []) if tier.get("tier") == 2 else []:
            ev = f.get("evidence") or {}
            if f.get("kind") in ("roofline", "launch-bound") and ev.get("hotspot") \
                    and isinstance(ev.get("floor_us"), int | float):
                return float(ev["floor_us"]) / 1000.0
    return None


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def chart_data(run: dict[str, Any]) -> dict[str, Any]:
    """Series for the timing chart: the kernel per round, torch.compile and the roofline."""
    rounds = run["rounds"]
    xs = [r.number for r in rounds]
    kernel, last = [], None
    for r in rounds:  # a round that timed nothing leaves its parent's kernel in place
        last = r.kernel_ms if r.kernel_ms is not None else (r.parent_ms or last)
        kernel.append(last)
    compile_ms = run["summary"].get("compile_ms")
    roof = next((r.roofline_ms for r in rounds if r.roofline_ms), None)
    return {"x": xs, "kernel_ms": kernel, "compile_ms": [compile_ms] * len(xs),
            "roofline_ms": [roof] * len(xs)}


@bp.get("/runs")
def index():
    return render_template("runs.html", runs=list_runs(house().config.runs))


@bp.get("/runs/<run_id>")
def detail(run_id: str):
    run = load_run(house().config.runs, run_id)
    if run is None:
        abort(404, f"No optimize run {run_id!r} under PASSWISE_HOME/runs.")
    return render_template("run.html", run_id=run_id, r=run, chart=chart_data(run))
