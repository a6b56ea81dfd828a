"""The Diagnoses pages: saved diagnoses, the form that queues a new one, a job's progress, and
one diagnosis read tier by tier."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for

from diagnose.report import trust
from diagnose.saved import SavedDiagnosisError
from web.diagnosis_view import passage_views, rewrite_view, stage_views
from web.jobs import JobError, task_names
from web.pages import house, int_arg, jobs
from web.rewrites import rewrite_for

bp = Blueprint("diagnoses", __name__)


@bp.get("/diagnoses")
def index():
    cfg = house().config
    return render_template("diagnoses.html", saved=house().diagnoses(), tasks=task_names(cfg),
                           active=[j for j in jobs().jobs.values()
                                   if j.state in ("queued", "running")])


@bp.post("/diagnoses")
def submit():
    form = request.form
    upload = request.files.get("kernel_file")
    source = form.get("source", "")
    if upload and upload.filename:
        try:
            source = upload.read().decode("utf-8")
        except UnicodeDecodeError:
            abort(400, "The uploaded kernel is not UTF-8 text; upload the .py file itself.")
    try:
        job = jobs().submit(source, form.get("task", ""), form.get("backend", "cuda"),
                            int_arg(form.get("max_tier"), 3, "max_tier"))
    except JobError as exc:
        abort(exc.status, str(exc))
    return redirect(url_for("diagnoses.job", job_id=job.id), 303)


@bp.get("/jobs/<job_id>")
def job(job_id: str):
    j = jobs().get(job_id)
    if j is None:
        abort(404, f"No diagnose job {job_id!r}; jobs are kept while the server runs.")
    return render_template("job.html", job=j)


@bp.get("/diagnoses/<name>")
def detail(name: str):
    try:
        d, stages = house().diagnosis(name)
    except SavedDiagnosisError as exc:
        abort(404, str(exc))
    return render_template("diagnosis.html", name=name, d=d, stages=stage_views(stages),
                           passages=passage_views(d, _house_if_indexed()),
                           rewrite=rewrite_view(d, rewrite_for(d, name, house().config)),
                           trust=trust(d))


def _house_if_indexed():
    try:
        house().kb  # noqa: B018 - opening it is the check
        return house()
    except Exception:
        return None
