"""/api/v1 through a real HTTP client against the app under waitress: the CLI's JSON fields,
pipelines in order, pass detail, sources, saved diagnoses, escalation, runs, diagnose jobs."""

from __future__ import annotations

import time

import pytest
import requests

from web.config import WebConfig
from web.jobs import JobError, JobQueue

HIT_KEYS = {"path", "repo", "start_line", "end_line", "symbol", "kind", "backend", "score", "text",
            "id", "permalink", "commit", "passes", "lexical_score", "dense_score", "prior"}


def get(server, path, **params):
    return requests.get(server["url"] + path, params=params, timeout=60)


def test_search_returns_the_cli_hit_fields_and_why_each_ranked(web_server):
    r = get(web_server, "/api/v1/search", q="vector width contiguity divisibility", per_page=3)
    assert r.status_code == 200
    page = r.json()
    assert page["page"] == 1 and len(page["hits"]) == 3 and page["has_more"]
    top = page["hits"][0]
    assert HIT_KEYS <= set(top)
    assert top["fused_score"] == pytest.approx(
        (top["lexical_score"] + top["dense_score"]) * top["prior"], abs=1e-4)
    assert top["reranked"] or top["score"] == pytest.approx(top["fused_score"], abs=1e-4)


def test_search_pages_do_not_overlap_and_filters_reach_the_index(web_server):
    one = get(web_server, "/api/v1/search", q="coalesce", per_page=2).json()["hits"]
    two = get(web_server, "/api/v1/search", q="coalesce", per_page=2, page=2).json()["hits"]
    assert one and two and not {h["id"] for h in one} & {h["id"] for h in two}
    defs = get(web_server, "/api/v1/search", q="coalesce", kind="pass_def").json()["hits"]
    assert defs and {h["kind"] for h in defs} == {"pass_def"}


def test_passes_lists_each_backend_pipeline_in_order_and_a_pass_in_detail(web_server):
    pipe = get(web_server, "/api/v1/passes").json()
    cuda = [e["argument"] for e in pipe["cuda"]]
    assert "tritongpu-coalesce" in cuda
    for stage in {e["stage"] for e in pipe["cuda"]}:  # in pipeline order within each stage
        idx = [e["index"] for e in pipe["cuda"] if e["stage"] == stage]
        assert idx == sorted(idx)
    rec = get(web_server, "/api/v1/passes/tritongpu-coalesce").json()
    assert rec["argument"] == "tritongpu-coalesce" and rec["td_path"]
    assert any(s["id"] == "scalar-global-loads" for s in rec["symptoms"])
    assert rec["chunks"] and all(len(c["id"]) == 24 for c in rec["chunks"])
    assert rec["analyses"]  # from the symptom table and the implementation chunks
    assert get(web_server, "/api/v1/passes/no-such-pass").status_code == 404


def test_sources_count_chunks_and_say_when_refreshed(web_server):
    [src] = get(web_server, "/api/v1/sources").json()
    assert src["chunks"] >= 5 and len(src["version"]) == 40 and src["refreshed_at"]


def test_saved_diagnosis_comes_back_with_its_ir_stages(web_server):
    names = [d["name"] for d in get(web_server, "/api/v1/diagnoses").json()]
    assert web_server["diagnosis"] in names
    d = get(web_server, f"/api/v1/diagnoses/{web_server['diagnosis']}").json()
    assert d["verdict"] == "concluded" and d["concluded_tier"] == 4
    assert d["stages"] and all(v["after"]["text"] for v in d["stages"].values())


def test_the_diagnosis_page_shows_the_concluded_familys_track_record(web_server):
    from diagnose.report import Diagnosis, trust

    data = get(web_server, f"/api/v1/diagnoses/{web_server['diagnosis']}").json()
    lead = data["ranking"][0]
    assert lead["concluded"] and "track_record" in lead
    html = get(web_server, f"/diagnoses/{web_server['diagnosis']}").text
    record = lead["track_record"]
    if record:
        assert f"right {record['right']} of {record['answered']} times" in html
    else:
        assert 'id="track-record"' not in html
    # a concluded family of poor record names the runner-up; one of good record does not
    data.pop("stages", None)
    poor = {**lead, "track_record": {"answered": 16, "right": 1, "reliability": 0.19}}
    second = {"rewrite_family": "multi-row-programs", "score": 0.5, "card_id": "", "by_tier": {"1": 0.5}}
    view = trust(Diagnosis.from_dict({**data, "ranking": [poor, second]}))
    assert (view.right, view.answered, view.poor, view.runner_up) == (1, 16, True, "multi-row-programs")
    good = {**lead, "track_record": {"answered": 30, "right": 28, "reliability": 0.91}}
    assert trust(Diagnosis.from_dict({**data, "ranking": [good, second]})).runner_up == ""
    assert trust(Diagnosis.from_dict({**data, "ranking": [{**lead, "track_record": None}]})) is None


def test_escalate_answers_like_the_cli(web_server):
    r = requests.post(web_server["url"] + "/api/v1/escalate", json={
        "symptom": "scalar-global-loads", "pass": "tritongpu-coalesce", "k": 3}, timeout=60)
    assert r.status_code == 200
    ans = r.json()
    assert ans["pass"] == "tritongpu-coalesce" and ans["passages"] and ans["verdict"]


def test_runs_read_the_run_folder(web_server):
    runs = get(web_server, "/api/v1/runs").json()
    assert runs[0]["run_id"] == web_server["run_id"] and runs[0]["best_vs_input"] == 1.31
    rounds = get(web_server, f"/api/v1/runs/{web_server['run_id']}").json()["rounds"]
    assert rounds[1]["roofline_ms"] == pytest.approx(0.0082)
    assert [(r["number"], r["parent"], r["verdict"]) for r in rounds] == [
        (0, None, "baseline"), (1, 0, "accepted"), (2, 1, "rejected")]


def test_diagnose_job_runs_the_cli_in_a_subprocess_and_is_polled_to_its_end(web_server):
    source = (web_server["kernels"] / "shifted" / "baseline.py").read_text()
    r = requests.post(web_server["url"] + "/api/v1/diagnoses", timeout=30,
                      json={"source": source, "task": "shifted", "max_tier": 1})
    assert r.status_code == 202
    job = r.json()
    deadline = time.time() + 120
    while job["state"] in ("queued", "running") and time.time() < deadline:
        time.sleep(0.5)
        job = get(web_server, r.headers["Location"]).json()
    assert job["state"] == "done", job
    assert any("tier 1 triage" in line for line in job["progress"])
    d = get(web_server, f"/api/v1/diagnoses/{job['diagnosis']}").json()
    assert d["target"] == "shifted" and [t["tier"] for t in d["tiers"]] == [1]


def test_job_queue_is_bounded_and_a_job_past_its_timeout_is_stopped(web_server, tmp_path):
    source = (web_server["kernels"] / "shifted" / "baseline.py").read_text()
    q = JobQueue(WebConfig(home=tmp_path, kernels_dir=web_server["kernels"], job_queue=1,
                           job_timeout_s=0.5))
    first = q.submit(source, "shifted", max_tier=3)
    with pytest.raises(JobError) as full:
        q.submit(source, "shifted")
    assert full.value.status == 429
    deadline = time.time() + 60
    while first.state in ("queued", "running") and time.time() < deadline:
        time.sleep(0.2)
    assert first.state == "failed" and "longer than 0 s" in first.error


def _same_page(theirs: dict, mine: dict) -> bool:
    """Two search pages alike but for float noise: the same hits with the same fields, floats
    within 1e-3 relative, in the same order except where two neighbours' scores tie within that
    noise. (A single-threaded worker's fused scores were seen 2.3e-4 apart from the server's on a
    clean-clone CI run, 7.6962 against 7.6945, the ids and order the same: 1e-4 was too tight.)"""
    def close(a: object, b: object) -> bool:
        return abs(a - b) <= 1e-3 * max(1.0, abs(b)) if isinstance(a, float) and isinstance(b, float) else a == b

    rest = lambda page: {k: v for k, v in page.items() if k != "hits"}  # noqa: E731
    by_id = {g["id"]: g for g in mine["hits"]}
    if rest(theirs) != rest(mine) or len(theirs["hits"]) != len(mine["hits"]):
        return False
    # two hits tied within the noise across the page's edge may fall on either side of it
    only_theirs = [h for h in theirs["hits"] if h["id"] not in by_id]
    only_mine = [g for g in mine["hits"] if g["id"] not in {h["id"] for h in theirs["hits"]}]
    edges = lambda page: (page["hits"][0]["id"], page["hits"][-1]["id"])  # noqa: E731
    if only_theirs and not (len(only_theirs) == len(only_mine) == 1
                            and only_theirs[0]["id"] in edges(theirs) and only_mine[0]["id"] in edges(mine)
                            and close(float(only_theirs[0]["score"]), float(only_mine[0]["score"]))):
        return False
    fields = all(h.keys() == by_id[h["id"]].keys() and all(close(h[k], by_id[h["id"]][k]) for k in h)
                 for h in theirs["hits"] if h["id"] in by_id)
    order = all(h["id"] == g["id"] or close(float(h["score"]), float(g["score"]))
                for h, g in zip(theirs["hits"], mine["hits"], strict=True))
    return fields and order


def test_search_workers_rank_in_their_own_processes_as_the_server_itself_would(web_home):
    """`passwise serve --search-workers N`: a spawned worker ranks, the server reads the chunks
    it shows; the pages are the ones an in-process ranking gives, and errors stay sentences."""
    from dataclasses import replace

    from kb.errors import KBError
    from web.house import House

    base = WebConfig(home=web_home["home"], corpus_set="default", kernels_dir=web_home["kernels"])
    here, there = House(base), House(replace(base, search_workers=1))
    try:
        for q, backend, page in (("vector width contiguity divisibility", None, 1),
                                 ("coalesce", "cuda", 2)):
            mine = here.search(q, backend=backend, page=page, per_page=3).to_json()
            theirs = there.search(q, backend=backend, page=page, per_page=3).to_json()
            # a worker runs torch on one thread: its floats may differ in the 7th digit
            scores = lambda page: [(h["id"][:8], h["score"]) for h in page["hits"]]  # noqa: E731
            assert theirs["hits"] and _same_page(theirs, mine), (q, scores(theirs), scores(mine))
        assert there.kb.embedder._model is None  # the serving process never embedded a query
        with pytest.raises(KBError, match="Unknown search mode"):
            there.search("coalesce", mode="sparse")
    finally:
        there.search_pool().close()
