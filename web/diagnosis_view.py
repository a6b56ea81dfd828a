"""What a diagnosis page shows, built from the saved record: the ladder, the IR stage beside the
one before it, the retrieved passages (from the index, deciding lines lit) and the rewrite as a
diff of the user's own kernel."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from diagnose.report import Diagnosis
from web.house import House
from web.render import DiffLine, chunk_body, code_html, side_by_side, unified


@dataclass
class StageView:
    key: str
    kernel: str
    before: str
    after: str
    rows: list[DiffLine]


@dataclass
class PassageView:
    cite: str
    permalink: str
    chunk_id: str
    html: Any
    deciding: list[int] = field(default_factory=list)


@dataclass
class RewriteView:
    """The user's kernel against its rewrite: where the rewrite came from and the diff."""

    origin: str
    rows: list[DiffLine]
    patch: str


def stage_views(stages: dict[str, Any]) -> list[StageView]:
    out = []
    for key, pair in stages.items():
        before, after = pair.get("before") or {}, pair.get("after") or {}
        out.append(StageView(key, pair.get("kernel", ""),
                             f"{before.get('name', '(none)')} ({before.get('pass_arg', '')})",
                             f"{after.get('name', '')} ({after.get('pass_arg', '')})",
                             side_by_side(before.get("text", ""), after.get("text", ""), 3)))
    return out


def deciding_lines(d: Diagnosis) -> dict[str, set[int]]:
    """path -> lines tier 4 named as deciding (its findings' locations)."""
    out: dict[str, set[int]] = {}
    for t in d.tiers:
        for f in t.findings:
            loc = f.location or {}
            if f.kind == "pass-source" and loc.get("path") and loc.get("line"):
                out.setdefault(loc["path"], set()).add(int(loc["line"]))
    return out


def passage_views(d: Diagnosis, house: House | None) -> list[PassageView]:
    """Each cited passage with its text from the index (by path and lines, never a path
    read from disk) and the deciding lines marked."""
    deciding = deciding_lines(d)
    seen, out = set(), []
    cites = [p for e in d.escalations for p in e.passages]
    cites += d.conclusion.citations if d.conclusion else []
    for p in cites:
        key = (p.repo, p.path, p.start_line)
        if key in seen:
            continue
        seen.add(key)
        found = _chunk_at(house, p.repo, p.path, p.start_line) if house else None
        marks = {n for n in deciding.get(p.path, set()) if p.start_line <= n <= p.end_line}
        html = code_html(chunk_body(found[1].text), found[1].language, found[1].start_line,
                         marks) if found else None
        out.append(PassageView(f"{p.repo}:{p.path}:{p.start_line}-{p.end_line} {p.symbol}",
                               p.permalink, found[0] if found else "", html, sorted(marks)))
    return out


def _chunk_at(house: House, repo: str, path: str, line: int):
    try:
        with house.query_lock:
            ids = house.kb.store.ids_where({"path": path})
            got = house.kb.store.get(ids[:200])
    except Exception:  # an unreachable index leaves the citation without its text
        return None
    best = [(cid, c) for cid, c in got if (not repo or c.source == repo)
            and c.start_line <= line <= c.end_line]
    return min(best, key=lambda x: x[1].end_line - x[1].start_line) if best else None


def rewrite_view(d: Diagnosis, rewritten: tuple[str, str] | None) -> RewriteView | None:
    """The diff of the diagnosed kernel against `rewritten` = (origin, new source)."""
    if not rewritten:
        return None
    try:
        mine = Path(d.kernel_path).read_text(encoding="utf-8")
    except OSError:
        return None
    origin, new = rewritten
    name = Path(d.kernel_path).name
    return RewriteView(origin, side_by_side(mine, new, 4), unified(mine, new, name))
