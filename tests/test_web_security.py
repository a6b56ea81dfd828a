"""The served app's defences: escaping of hostile queries, kernels and chunk text, no file by
path, the token beyond loopback, CSRF on forms, body limits, and no 5xx for any input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.webfixtures import INJECTED
from web import create_app
from web.config import WebConfig
from web.serve import ServeError, check_listen

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = "<script>alert('q')</script>"


def test_reflected_script_in_a_query_is_escaped(web_server):
    r = requests.get(web_server["url"] + "/search", params={"q": SCRIPT, "source": '"><svg onload=x>'},
                     timeout=60)
    assert r.status_code == 200
    assert SCRIPT not in r.text and "&lt;script&gt;" in r.text and "<svg onload" not in r.text


def test_stored_script_in_chunk_text_is_escaped_on_search_and_chunk_pages(web_server):
    r = requests.get(web_server["url"] + "/search", params={"q": "vectorization notes alert"},
                     timeout=60)
    assert web_server["injected"] in r.text  # the hostile chunk is among the hits
    page = requests.get(f"{web_server['url']}/chunk/{web_server['injected']}", timeout=30).text
    for text in (r.text, page):
        assert INJECTED not in text and "<script>alert" not in text and "<img src=x" not in text


def test_every_response_carries_a_strict_csp(web_server):
    for path in ("/search?q=x", "/passes", "/api/v1/sources", "/nowhere"):
        csp = requests.get(web_server["url"] + path, timeout=60).headers["Content-Security-Policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp
        assert "unsafe-inline" not in csp


def test_files_come_from_the_index_never_from_a_path(web_server):
    for path in ("/chunk/..%2F..%2F..%2Fetc%2Fpasswd", "/chunk/../../etc/passwd",
                 "/diagnoses/..%2F..%2Fetc%2Fpasswd", "/api/v1/diagnoses/....%2F%2Fetc%2Fpasswd",
                 "/runs/..%2F..%2F..%2Fetc", "/api/v1/chunks/%2Fetc%2Fpasswd",
                 "/static/..%2F..%2Fpyproject.toml", "/api/v1/runs/..%2Fdiagnoses"):
        r = requests.get(web_server["url"] + path, timeout=30)
        assert 400 <= r.status_code < 500, path
        assert "root:" not in r.text and "[project]" not in r.text


def test_listening_beyond_loopback_needs_a_token():
    try:
        check_listen("0.0.0.0", None)
        raise AssertionError("a non-loopback host without a token was accepted")
    except ServeError as exc:
        assert "needs a token" in str(exc)
    check_listen("0.0.0.0", "s3cret")  # with a token it may
    proc = subprocess.run([sys.executable, "-m", "passwise", "serve", "--host", "0.0.0.0"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "HOME": "/tmp"})
    assert proc.returncode == 1 and "needs a token" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_token_guards_every_request_and_loopback_only_without_one(web_server):
    guarded = create_app(WebConfig(home=web_server["home"], token="s3cret")).test_client()
    assert guarded.get("/api/v1/sources").status_code == 401
    assert guarded.get("/passes").status_code == 401
    ok = guarded.get("/api/v1/runs", headers={"Authorization": "Bearer s3cret"})
    assert ok.status_code == 200
    open_app = create_app(WebConfig(home=web_server["home"])).test_client()
    far = open_app.get("/api/v1/runs", environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert far.status_code == 403 and "loopback" in far.get_json()["error"]


def test_forms_need_a_csrf_token_and_json_posts_a_json_type(web_server):
    url = web_server["url"]
    r = requests.post(url + "/diagnoses", data={"source": "x", "task": ""}, timeout=30,
                      allow_redirects=False)
    assert r.status_code == 400 and "CSRF" in r.text
    r = requests.post(url + "/api/v1/escalate", data="symptom=x", timeout=30,
                      headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415 and r.json()["error"]


def test_oversized_and_malformed_bodies_are_one_sentence(web_server):
    url = web_server["url"]
    big = {"source": "x" * (web_server["config"].max_body_bytes + 10)}
    r = requests.post(url + "/api/v1/diagnoses", json=big, timeout=30)
    assert r.status_code == 413 and "larger than" in r.json()["error"]
    for body in ("{bad json", "[1, 2]", '"text"', "null"):
        r = requests.post(url + "/api/v1/escalate", data=body, timeout=30,
                          headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["error"].endswith("."), body
    r = requests.post(url + "/api/v1/diagnoses", json={"source": 5}, timeout=30)
    assert r.status_code == 400 and r.json() == {"error": "source must be a string."}


# ---------------------------------------------------------------- fuzz: never a 5xx

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40)
GET_ROUTES = ["/api/v1/search", "/api/v1/passes", "/api/v1/passes/{x}", "/api/v1/chunks/{x}",
              "/api/v1/sources", "/api/v1/tasks", "/api/v1/jobs/{x}", "/api/v1/diagnoses",
              "/api/v1/diagnoses/{x}", "/api/v1/runs", "/api/v1/runs/{x}"]
PARAMS = st.dictionaries(st.sampled_from(["q", "backend", "kind", "source", "pass", "page",
                                          "per_page", "mode", "zzz"]), TEXT, max_size=5)
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(TEXT, inner, max_size=3), max_leaves=8)
BODIES = st.one_of(JSON, st.fixed_dictionaries({}, optional={
    "symptom": JSON, "pass": JSON, "backend": JSON, "k": JSON, "source": JSON,
    "task": JSON, "max_tier": JSON}))
FUZZ = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@FUZZ
@given(route=st.sampled_from(GET_ROUTES), x=TEXT, params=PARAMS)
def test_fuzz_get_routes_never_answer_5xx(web_server, route, x, params):
    from urllib.parse import quote

    path = route.replace("{x}", quote(x, safe="") or "x")
    r = requests.get(web_server["url"] + path, params=params, timeout=60)
    assert r.status_code < 500, (path, params, r.text[:300])
    if r.status_code >= 400:
        assert r.json()["error"]


@FUZZ
@given(route=st.sampled_from(["/api/v1/escalate", "/api/v1/diagnoses"]), body=BODIES)
def test_fuzz_post_routes_never_answer_5xx(web_server, route, body):
    # a well-formed kernel would start a real diagnosis; the fuzz only needs the checks
    if isinstance(body, dict) and isinstance(body.get("source"), str) and body["source"].strip():
        body["backend"] = "no-such-backend"
    r = requests.post(web_server["url"] + route, json=body, timeout=60)
    assert r.status_code < 500, (route, body, r.text[:300])
    if r.status_code >= 400:
        assert r.json()["error"]


HOSTILE_KERNEL = """import triton
import triton.language as tl


@triton.jit(do_not_specialize=["stride"])
def add_kernel(x_ptr, out_ptr, n, stride, BLOCK: tl.constexpr):
    # </textarea><script>alert('k')</script>
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs * stride, mask=m), mask=m)
"""


def test_script_in_a_submitted_kernel_is_escaped_in_the_diff_of_its_diagnosis(web_server):
    import time

    url = web_server["url"]
    job = requests.post(url + "/api/v1/diagnoses", json={"source": HOSTILE_KERNEL, "max_tier": 1},
                        timeout=30).json()
    deadline = time.time() + 120
    while job["state"] in ("queued", "running") and time.time() < deadline:
        time.sleep(0.5)
        job = requests.get(f"{url}/api/v1/jobs/{job['id']}", timeout=30).json()
    assert job["state"] == "done", job
    page = requests.get(f"{url}/diagnoses/{job['diagnosis']}", timeout=30).text
    assert 'id="rewrite-diff"' in page  # the kernel's own lines are on the page
    assert "&lt;script&gt;alert" in page and "<script>alert" not in page
    assert "</textarea><script>" not in page
