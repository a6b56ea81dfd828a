"""The Search page and the chunk view: hybrid search with filters, highlighted hits, paging."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, render_template, request, url_for

from kb.chunk import BACKENDS, KINDS
from web.pages import house, int_arg, or_abort
from web.render import chunk_body, code_html

bp = Blueprint("search", __name__)
PREVIEW_LINES = 24


@bp.get("/search")
def page():
    args = request.args
    q = args.get("q", "").strip()
    filters = {k: args.get(k, "").strip() or None for k in ("backend", "kind", "source", "pass")}
    result = None
    if q:
        result = or_abort(house().search, q, backend=filters["backend"], kind=filters["kind"],
                          source=filters["source"], pass_=filters["pass"],
                          page=int_arg(args.get("page"), 1, "page"))
        result.hits = [_with_preview(h) for h in result.hits]
    return render_template("search.html", q=q, filters=filters, result=result,
                           backends=BACKENDS, kinds=KINDS, sources=house().source_names(),
                           prev_url=_page_url(q, filters, result, -1),
                           next_url=_page_url(q, filters, result, +1))


def _page_url(q: str, filters: dict, result, step: int) -> str | None:
    """The URL of the neighbouring page: the query and filters stay in it, to be shared."""
    if result is None or (step < 0 and result.page == 1) or (step > 0 and not result.has_more):
        return None
    params = {"q": q, **{k: v for k, v in filters.items() if v}, "page": result.page + step}
    return url_for("search.page") + "?" + urlencode(params)


def _with_preview(hit: dict) -> dict:
    """The hit with its first PREVIEW_LINES highlighted (the chunk page shows all of it)."""
    lines = chunk_body(hit["text"]).splitlines()
    more = max(0, len(lines) - PREVIEW_LINES)
    html = code_html("\n".join(lines[:PREVIEW_LINES]), hit["language"], hit["start_line"])
    return {**hit, "html": html, "more_lines": more}


@bp.get("/chunk/<chunk_id>")
def chunk(chunk_id: str):
    c = or_abort(house().chunk, chunk_id)
    mark = {int_arg(x, 0, "mark") for x in request.args.getlist("mark")}
    return render_template("chunk.html", c=c, chunk_id=chunk_id,
                           html=code_html(chunk_body(c.text), c.language, c.start_line, mark))
