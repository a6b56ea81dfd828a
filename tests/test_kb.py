"""The knowledge base end to end: index a real git repository, search, refresh, kill, server mode."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from indexer.index import Progress, index_corpus, refresh
from indexer.manifest import load_corpus, load_corpus_file
from indexer.sources import parse_mirrors
from kb.errors import KBError
from kb.lexical import tokenize
from kb.search import Filters, KnowledgeBase, fuse
from kb.store import Store
from tests.kbfixtures import advance_compiler_repo, make_compiler_repo, manifest

URL = "https://example.invalid/org/fixture-compiler"
QUIET = Progress(quiet=True)


def _kb(home: Path, embedder, chroma_url: str | None = None) -> KnowledgeBase:
    return KnowledgeBase(Store.open(home, chroma_url=chroma_url, model_slug=embedder.slug),
                         embedder, home)


@pytest.fixture
def compiler(tmp_path):
    repo, sha = make_compiler_repo(tmp_path / "upstream")
    corpus = load_corpus_file(manifest(tmp_path / "fixture.toml", URL))
    mirrors = {URL: str(tmp_path / "upstream")}
    return repo, sha, corpus, mirrors


def _paths(kb: KnowledgeBase) -> list[str]:
    return sorted(m["path"] for _, _, metas in kb.store.iter_all() for m in metas)


def test_index_git_source_through_a_mirror_records_commit_and_permalinks(tmp_path, embedder, compiler):
    repo, sha, corpus, mirrors = compiler
    kb = _kb(tmp_path / "home", embedder)
    report = index_corpus(kb, corpus, mirrors=mirrors, progress=QUIET)
    src = report.sources[0]
    assert src.status == "indexed" and src.version == sha
    assert src.files_seen == 9  # build/ is excluded by default
    assert "build/generated.cpp" not in _paths(kb)
    hit = kb.search("getVectorWidth contiguity divisibility", k=1)[0]
    assert hit.chunk.path == "lib/Coalesce.cpp"
    assert hit.chunk.permalink.startswith(f"{URL}@{sha[:12]}:lib/Coalesce.cpp#L")
    assert hit.chunk.commit == sha and hit.chunk.backend == "cuda"
    assert kb.store.get_state("source:fixture")["version"] == sha


def test_refresh_reindexes_only_changed_files_and_deletes_removed_ones(tmp_path, embedder, compiler):
    repo, _, corpus, mirrors = compiler
    kb = _kb(tmp_path / "home", embedder)
    index_corpus(kb, corpus, mirrors=mirrors, progress=QUIET)
    old_guide = kb.store.ids_where({"path": "docs/guide.md"})
    assert old_guide
    new_sha = advance_compiler_repo(repo)
    report = refresh(kb, mirrors=mirrors, progress=QUIET)
    src = report.sources[0]
    assert (src.files_indexed, src.files_removed) == (2, 1)
    assert src.version == new_sha
    assert "docs/guide.md" not in _paths(kb)
    texts = [d for _, docs, _ in kb.store.iter_all() for d in docs]
    assert any("numStagesAtLeastTwo" in t for t in texts)
    assert not any("getSingleLowerBound().has_value();" in t for t in texts)  # old body gone
    assert kb.search("prefetch dot operands shared memory", k=1)[0].chunk.path == "lib/Prefetch.cpp"
    again = refresh(kb, mirrors=mirrors, progress=QUIET).sources[0]
    assert again.status == "unchanged"


KILL_SCRIPT = textwrap.dedent('''
    import os, signal, sys
    from pathlib import Path
    import indexer.index as ix
    from indexer.sources import parse_mirrors
    from kb.search import open_kb
    ix.FILES_PER_BATCH = 1
    real = ix._index_batch
    calls = []
    def dying_batch(*a, **k):
        calls.append(1)
        if len(calls) == 3:
            os.kill(os.getpid(), signal.SIGKILL)  # die mid-refresh, after two files
        return real(*a, **k)
    ix._index_batch = dying_batch
    kb = open_kb(Path(sys.argv[1]))
    ix.refresh(kb, mirrors=parse_mirrors([sys.argv[2]], env=""), progress=ix.Progress(True))
''')


def test_refresh_killed_midway_still_answers_and_next_refresh_completes(tmp_path, embedder, compiler):
    repo, _, corpus, mirrors = compiler
    home = tmp_path / "home"
    kb = _kb(home, embedder)
    index_corpus(kb, corpus, mirrors=mirrors, progress=QUIET)
    # Change every file so the refresh has many batches to get through.
    root = Path(repo.working_tree_dir)
    for p in sorted(root.rglob("*")):
        if p.is_file() and ".git" not in p.parts and p.suffix in (".cpp", ".td", ".md", ".py"):
            p.write_text(p.read_text() + "\n// touched for the upgrade: vectorizeLoadsAgain\n")
    repo.git.add(A=True)
    repo.index.commit("touch all")
    script = tmp_path / "kill.py"
    script.write_text(KILL_SCRIPT)
    proc = subprocess.run([sys.executable, str(script), str(home), f"{URL}={root}"],
                          cwd=Path(__file__).parent.parent, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-2000:]
    kb = _kb(home, embedder)
    assert kb.search("getVectorWidth", k=3)  # the half-refreshed index still answers
    refresh(kb, mirrors=mirrors, progress=QUIET)
    fresh = _kb(tmp_path / "fresh", embedder)
    index_corpus(fresh, corpus, mirrors=mirrors, progress=QUIET)
    got = sorted(i for ids, _, _ in kb.store.iter_all() for i in ids)
    want = sorted(i for ids, _, _ in fresh.store.iter_all() for i in ids)
    assert got == want  # no duplicate, no stale chunk
    assert kb.lexical().generation == kb.store.generation


def test_filters_restrict_backend_kind_path_and_pass(tmp_path, embedder, compiler):
    _, _, corpus, mirrors = compiler
    kb = _kb(tmp_path / "home", embedder)
    index_corpus(kb, corpus, mirrors=mirrors, progress=QUIET)
    asc = kb.search("memory access gather", k=10, filters=Filters(backend="ascend"))
    assert asc and all(h.chunk.backend in ("ascend", "common") for h in asc)
    assert any(h.chunk.path.startswith("third_party/ascend") for h in asc)
    lit = kb.search("coalesce", k=10, filters=Filters(kind="lit_test"))
    assert lit and all(h.chunk.kind == "lit_test" for h in lit)
    only = kb.search("pipeline stages", k=10, filters=Filters(path_glob="lib/*.cpp"))
    assert only and all(h.chunk.path.startswith("lib/") for h in only)
    tdpass = kb.search("coalesce", k=10, filters=Filters(pass_="tritongpu-coalesce"))
    assert tdpass and all("tritongpu-coalesce" in h.chunk.passes for h in tdpass)


def test_hybrid_finds_what_each_retriever_alone_ranks_lower(tmp_path, embedder, compiler):
    _, _, corpus, mirrors = compiler
    kb = _kb(tmp_path / "home", embedder)
    index_corpus(kb, corpus, mirrors=mirrors, progress=QUIET)
    q = "tt.disallow_acc_multi_buffer canPipelineLoop"
    lexical = kb.search(q, k=3, mode="lexical")
    hybrid = kb.search(q, k=3)
    assert lexical[0].chunk.path == "lib/Pipeline.cpp"
    assert hybrid[0].chunk.path == "lib/Pipeline.cpp"
    assert hybrid[0].dense_rank is not None and hybrid[0].lexical_rank == 1


def test_fusion_adds_normalised_lexical_to_weighted_dense_and_applies_the_kind_prior():
    from kb.chunk import Chunk
    from kb.search import Scored

    kinds = {"a": "function", "b": "function", "c": "lit_test", "d": "function"}

    class Chunks:
        def get(self, ids):
            return [(i, Chunk(text=i, path=i, start_line=1, end_line=1, kind=kinds[i])) for i in ids]

    lexical = [Scored("a", 10.0), Scored("b", 9.0), Scored("c", 10.0)]
    dense = [Scored("b", 0.9), Scored("d", 0.95), Scored("a", 0.1)]
    hits = fuse(dense, lexical, 4, Chunks())
    score = {h.id: round(h.score, 3) for h in hits}
    assert score == {"b": round(0.9 + 0.3 * 0.9, 3), "a": round(1.0 + 0.03, 3),
                     "c": 0.6, "d": round(0.3 * 0.95, 3)}
    assert [h.id for h in hits] == ["b", "a", "c", "d"]  # agreement beats a lexical-only tie
    assert hits[0].dense_rank == 1 and hits[0].lexical_rank == 2


def test_tokenize_splits_identifiers_and_keeps_them_whole():
    toks = tokenize("TritonGPUCoalesce tritongpu-coalesce get_vector_width 向量加载")
    for t in ("tritongpucoalesce", "triton", "gpu", "coalesce", "tritongpu-coalesce",
              "get_vector_width", "vector", "width", "向量", "加载"):
        assert t in toks


def test_a_query_vector_is_the_one_batch_embedding_gives_the_same_text(embedder):
    """embed_query() runs the model on the question alone; the index's vectors came from
    embed(), so any difference would move dense ranks."""
    for q in ("why are loads not vectorized", "hivm-plan-memory 调度", "x", "getVectorWidth() " * 80):
        assert embedder.embed_query(q) == embedder.embed([q])[0]


def test_missing_mirror_and_no_network_skip_that_source_and_index_the_rest(tmp_path, embedder, compiler):
    _, _, corpus, mirrors = compiler
    kb = _kb(tmp_path / "home", embedder)
    index_corpus(kb, corpus, mirrors=mirrors, progress=QUIET)
    before = kb.store.count()
    broken = load_corpus_file(manifest(tmp_path / "b.toml", "file:///nonexistent/repo.git"))
    report = index_corpus(kb, broken, mirrors={}, progress=QUIET)
    assert report.sources[0].status == "skipped"
    assert "--mirror" in report.sources[0].reason
    gone = index_corpus(kb, corpus, mirrors={URL: str(tmp_path / "nowhere")}, progress=QUIET)
    assert gone.sources[0].status == "skipped" and "does not exist" in gone.sources[0].reason
    assert kb.store.count() == before  # nothing already indexed is lost


def test_binary_huge_and_non_utf8_files_are_skipped_with_a_reason(tmp_path, embedder):
    d = tmp_path / "src"
    d.mkdir()
    (d / "ok.cpp").write_text("int add(int a, int b) { return a + b; }\n")
    (d / "blob.cpp").write_bytes(b"\x7fELF\0\0\0binary")
    (d / "latin.cpp").write_bytes(("// " + "\xe9" * 400 + "\n").encode("latin-1"))
    (d / "huge.cpp").write_text("int x;\n" * 300_000)
    m = tmp_path / "local.toml"
    m.write_text(f'name = "local"\n[[sources]]\nname = "local"\ntype = "dir"\npath = "{d}"\n')
    kb = _kb(tmp_path / "home", embedder)
    src = index_corpus(kb, load_corpus_file(m), mirrors={}, progress=QUIET).sources[0]
    assert src.files_seen == 4 and src.skipped_files == 3
    reasons = " ".join(src.skipped_examples)
    assert "binary" in reasons and "not UTF-8" in reasons and "larger than" in reasons
    assert _paths(kb) == ["ok.cpp"]


def test_user_errors_are_one_clear_sentence(tmp_path, embedder):
    with pytest.raises(KBError, match="Unknown corpus 'nope'"):
        load_corpus("nope")
    kb = _kb(tmp_path / "home", embedder)
    with pytest.raises(KBError, match="empty"):
        kb.search("   ")
    with pytest.raises(KBError, match="passwise index"):
        kb.search("anything")
    with pytest.raises(KBError, match="URL=PATH"):
        parse_mirrors(["no-equals-sign"], env="")
    port = _free_port()
    with pytest.raises(KBError, match=f"Cannot reach the Chroma server at http://127.0.0.1:{port}"):
        Store.open(tmp_path, chroma_url=f"http://127.0.0.1:{port}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def chroma_server(tmp_path):
    exe = Path(sys.executable).parent / "chroma"
    port = _free_port()
    log = open(tmp_path / "chroma.log", "w")
    proc = subprocess.Popen([str(exe), "run", "--path", str(tmp_path / "server-db"),
                             "--host", "127.0.0.1", "--port", str(port)],
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.3)
    else:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("chroma run did not start: " + (tmp_path / "chroma.log").read_text()[-1000:])
    yield url
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=30)


def test_server_mode_indexes_searches_and_refreshes_through_chroma_run(tmp_path, embedder, compiler, chroma_server):
    repo, sha, corpus, mirrors = compiler
    kb = _kb(tmp_path / "home", embedder, chroma_url=chroma_server)
    index_corpus(kb, corpus, mirrors=mirrors, progress=QUIET)
    assert kb.store.count() > 5
    assert kb.search("getVectorWidth contiguity", k=1)[0].chunk.path == "lib/Coalesce.cpp"
    # A second client (another machine's cache) sees the same chunks and state.
    other = _kb(tmp_path / "other-home", embedder, chroma_url=chroma_server)
    assert other.store.get_state("source:fixture")["version"] == sha
    assert other.search("canPipelineLoop", k=1, mode="lexical")[0].chunk.path == "lib/Pipeline.cpp"
    advance_compiler_repo(repo)
    assert refresh(other, mirrors=mirrors, progress=QUIET).sources[0].files_indexed == 2
