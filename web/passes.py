"""The Passes pages: each backend's pipeline in order, and one page per pass."""

from __future__ import annotations

from flask import Blueprint, render_template

from web.pages import house, or_abort
from web.render import chunk_body, code_html

bp = Blueprint("passes", __name__)


@bp.get("/passes")
def pipeline():
    return render_template("passes.html", pipelines=or_abort(house().pipeline))


@bp.get("/passes/<path:name>")
def detail(name: str):
    rec = or_abort(house().pass_detail, name)
    for c in rec["chunks"]:
        c["html"] = code_html(chunk_body(c["text"]), c["language"], c["start_line"])
    return render_template("pass.html", rec=rec)
