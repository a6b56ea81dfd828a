"""/api/v1: JSON with the fields of the CLI's --json; errors are {"error": sentence} with a 4xx
status for anything the caller can fix (docs/api.md)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, request

from diagnose.saved import SavedDiagnosisError
from kb.errors import KBError
from web.house import NotFound
from web.jobs import JobError, task_names
from web.pages import house, jobs
from web.runs import list_runs, load_run

bp = Blueprint("api", __name__, url_prefix="/api/v1")
SEARCH_ARGS = {"q", "backend", "kind", "source", "pass", "page", "per_page", "mode"}


@bp.errorhandler(KBError)
def _kb_error(exc: KBError):
    return jsonify(error=str(exc)), 404 if isinstance(exc, NotFound) else 400


def _int(name: str, default: int) -> int:
    raw = request.args.get(name)
    if raw in (None, ""):
        return default
    try:
        return int(raw)
    except ValueError:
        abort(400, f"{name} must be a whole number.")


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, "The body must be a JSON object.")
    return data


def _str(data: dict, key: str, default: str = "", required: bool = False) -> str:
    value = data.get(key, default)
    if value is None:
        value = default
    if not isinstance(value, str):
        abort(400, f"{key} must be a string.")
    if required and not value.strip():
        abort(400, f"{key} is required.")
    return value


@bp.get("/search")
def search():
    unknown = set(request.args) - SEARCH_ARGS
    if unknown:
        abort(400, f"Unknown parameter {sorted(unknown)[0]!r}; use {', '.join(sorted(SEARCH_ARGS))}.")
    a = request.args
    mode = a.get("mode", "hybrid")
    if mode not in ("hybrid", "dense", "lexical"):
        abort(400, "mode must be hybrid, dense or lexical.")
    page = house().search(a.get("q", ""), backend=a.get("backend") or None,
                          kind=a.get("kind") or None, source=a.get("source") or None,
                          pass_=a.get("pass") or None, page=_int("page", 1),
                          per_page=_int("per_page", house().config.per_page), mode=mode)
    return jsonify(page.to_json())


@bp.get("/passes")
def passes():
    return jsonify(house().pipeline(request.args.get("backend") or None))


@bp.get("/passes/<path:name>")
def pass_detail(name: str):
    return jsonify(house().pass_detail(name))


@bp.get("/chunks/<chunk_id>")
def chunk(chunk_id: str):
    c = house().chunk(chunk_id)
    return jsonify({**c.to_json(), "id": chunk_id})


@bp.get("/sources")
def sources():
    return jsonify(house().sources())


@bp.get("/tasks")
def tasks():
    return jsonify(task_names(house().config))


@bp.post("/diagnoses")
def diagnose():
    """Queue a diagnosis of a kernel source; poll /api/v1/jobs/<id> for its progress."""
    data = _body()
    max_tier = data.get("max_tier", 3)
    try:
        job = jobs().submit(_str(data, "source", required=True), _str(data, "task"),
                            _str(data, "backend", "cuda"), max_tier)
    except JobError as exc:
        return jsonify(error=str(exc)), exc.status
    return jsonify(job.to_json()), 202, {"Location": f"/api/v1/jobs/{job.id}"}


@bp.get("/jobs/<job_id>")
def job(job_id: str):
    j = jobs().get(job_id)
    if j is None:
        abort(404, f"No diagnose job {job_id!r}.")
    return jsonify(j.to_json())


@bp.get("/diagnoses")
def diagnoses():
    return jsonify(house().diagnoses())


@bp.get("/diagnoses/<name>")
def diagnosis(name: str):
    try:
        d, stages = house().diagnosis(name)
    except SavedDiagnosisError as exc:
        abort(404, str(exc))
    return jsonify({**d.to_dict(), "stages": stages})


@bp.post("/escalate")
def escalate():
    """`passwise escalate --json` for a symptom (id or sentence) and an optional pass."""
    from diagnose.escalation import escalate as tier4

    data = _body()
    k = data.get("k", 5)
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= 20:
        abort(400, "k must be an integer from 1 to 20.")
    backend = _str(data, "backend", "cuda")
    if backend not in ("cuda", "ascend"):
        abort(400, "backend must be cuda or ascend.")
    symptom = _str(data, "symptom", required=True)
    if len(symptom) > 500:
        abort(400, "The symptom is longer than 500 characters; shorten it.")
    h = house()
    with h.query_lock:
        answer = tier4.escalate(h.kb, h.registry(), symptom=symptom,
                                pass_name=_str(data, "pass") or None, backend=backend, k=k)
    return jsonify(answer.to_json())


@bp.get("/runs")
def runs():
    return jsonify(list_runs(house().config.runs))


@bp.get("/runs/<run_id>")
def run(run_id: str):
    r = load_run(house().config.runs, run_id)
    if r is None:
        abort(404, f"No optimize run {run_id!r}.")
    return jsonify({"run": r["run"], "summary": r["summary"],
                    "rounds": [x.to_json() for x in r["rounds"]]})
