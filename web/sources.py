"""The Sources page: what is indexed, at which commit, how many chunks, when last refreshed."""

from __future__ import annotations

from flask import Blueprint, render_template

from web.pages import house, or_abort

bp = Blueprint("sources", __name__)


@bp.get("/sources")
def page():
    rows = or_abort(house().sources)
    return render_template("sources.html", rows=rows, total=sum(r["chunks"] for r in rows))
