"""The `passwise` command as a user runs it: index, search, passes, sources, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.kbfixtures import make_compiler_repo, manifest

ROOT = Path(__file__).resolve().parent.parent
URL = "https://example.invalid/org/fixture-compiler"


def run(args: list[str], home: Path, check: bool = True) -> subprocess.CompletedProcess:
    env = {**os.environ, "PASSWISE_HOME": str(home), "PASSWISE_MIRRORS": ""}
    proc = subprocess.run([sys.executable, "-m", "passwise", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    if check:
        assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cli")
    make_compiler_repo(tmp / "upstream")
    m = manifest(tmp / "fixture.toml", URL)
    home = tmp / "home"
    proc = run(["index", "--corpus", str(m), "--mirror", f"{URL}={tmp / 'upstream'}", "--json"], home)
    return home, json.loads(proc.stdout)


def test_index_json_reports_each_source(indexed):
    _, report = indexed
    src = report["sources"][0]
    assert src["name"] == "fixture" and src["status"] == "indexed"
    assert src["files_indexed"] == 9 and report["total_chunks"] >= 9


def test_search_json_hits_carry_the_documented_keys(indexed):
    home, _ = indexed
    hits = json.loads(run(["search", "vector width from contiguity and divisibility", "--json",
                           "--k", "3"], home).stdout)
    assert len(hits) == 3
    for key in ("path", "repo", "start_line", "end_line", "symbol", "kind", "backend", "score", "text"):
        assert key in hits[0]
    assert hits[0]["path"] == "lib/Coalesce.cpp"


def test_search_filters_reach_the_index(indexed):
    home, _ = indexed
    hits = json.loads(run(["search", "coalesce", "--kind", "pass_def", "--json"], home).stdout)
    assert hits and {h["kind"] for h in hits} == {"pass_def"}
    assert any("tritongpu-coalesce" in h["text"] for h in hits)


def test_passes_prints_the_pipeline_and_resolves_a_dump_header(indexed):
    home, _ = indexed
    pipe = json.loads(run(["passes", "--json"], home).stdout)
    args = [e["argument"] for e in pipe.get("common", []) + pipe.get("cuda", [])]
    assert args.index("tritongpu-coalesce") < args.index("tritongpu-remove-layout-conversions")
    rec = json.loads(run(["passes", "--json",
                          "// -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) "
                          "('builtin.module' operation) //----- //"], home).stdout)
    assert rec["argument"] == "tritongpu-coalesce"
    assert rec["summary"] == "coalesce global memory accesses"


def test_sources_lists_the_indexed_commit(indexed):
    home, _ = indexed
    rows = json.loads(run(["sources", "--json"], home).stdout)
    assert rows[0]["name"] == "fixture" and len(rows[0]["version"]) == 40


@pytest.mark.parametrize("args, sentence", [
    (["search", ""], "The query is empty"),
    (["index", "--corpus", "no-such-corpus"], "Unknown corpus 'no-such-corpus'"),
    (["search", "x", "--chroma-url", "http://127.0.0.1:9"], "Cannot reach the Chroma server"),
    (["passes", "no-such-pass"], "No pass matches 'no-such-pass'"),
])
def test_user_errors_end_in_one_sentence_not_a_traceback(indexed, args, sentence):
    home, _ = indexed
    proc = run(args, home, check=False)
    assert proc.returncode != 0
    assert sentence in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_help_lists_every_command():
    out = subprocess.run([sys.executable, "-m", "passwise", "--help"], cwd=ROOT,
                         capture_output=True, text=True).stdout
    for cmd in ("index", "refresh", "search", "passes", "diagnose", "escalate"):
        assert cmd in out
