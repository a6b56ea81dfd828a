"""Each ranking step on its own: tokens, enriched documents, query expansion, callees, reranker,
and the backend of pattern cards. Every test builds a small real index and fails without its step."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from indexer.index import Progress, index_corpus
from indexer.manifest import load_corpus_file
from kb import ranking
from kb.callees import SymbolTable, callee_names, deciding_lines
from kb.enrich import enrich, pass_notes
from kb.expand import expand, load_lexicon
from kb.lexical import LexicalIndex
from kb.passes import ImplAnchor, PassRecord, PassRegistry
from kb.rerank import FEATURES, Candidate, Reranker, featurize, load_reranker
from kb.search import MAIN, Filters, KnowledgeBase, SearchConfig
from kb.store import Store
from kb.tokens import tokenize

ROOT = Path(__file__).resolve().parent.parent
QUIET = Progress(quiet=True)


def _meta(path: str, symbol: str = "", kind: str = "function", source: str = "src",
          start: int = 1, end: int = 10, backend: str = "cuda") -> dict:
    return {"path": path, "symbol": symbol, "kind": kind, "source": source, "backend": backend,
            "start_line": start, "end_line": end, "language": "cpp", "scope": ""}


def _index(rows: list[tuple[str, str, dict]]) -> LexicalIndex:
    return LexicalIndex.build(rows)


def _top_id(lex: LexicalIndex, terms: dict[str, float] | str) -> str:
    return lex.ids[lex.top(terms, 1)[0][0]]


def test_tokens_stem_words_so_a_question_meets_camel_case_parts():
    assert {"vector", "load"} <= set(tokenize("why are my loads not vectorized"))
    assert "vector" in tokenize("getVectorWidth")
    assert {"mlir::triton::gpu::coalescepass", "coalesce", "gpu"} <= set(
        tokenize("mlir::triton::gpu::CoalescePass"))
    assert not {"why", "my", "get", "is"} & set(tokenize("why is my getWidth"))
    lex = _index([("width", "unsigned getVectorWidth(AxisInfo &info) { return info.width; }",
                   _meta("a.cpp")),
                  ("other", "void emitLoadLoop(Block *b) { lower(b); }", _meta("b.cpp"))])
    assert _top_id(lex, "why are the accesses not vectorized") == "width"


def test_enriched_documents_carry_the_pass_summary_to_its_implementation():
    reg = PassRegistry([PassRecord(
        "tritongpu-pipeline", def_name="TritonGPUPipeline", source="src",
        summary="software pipelining of loops with async copies",
        impl_anchors=[ImplAnchor("lib/Stages.cpp", "StagePass", 1, 40, "class", "src")])])
    notes = pass_notes(reg)
    impl = ("impl", "struct StagePass { void runOnOperation() { expandStages(mod); } };",
            _meta("lib/Stages.cpp", "StagePass", start=3, end=20))
    other = ("other", "void wrapLoops(ModuleOp mod) { for (auto loop : loops) wrap(loop); }",
             _meta("lib/Other.cpp", "wrapLoops"))
    q = "why are my loops not software pipelined with async copies"
    plain = _index([impl, other])
    rich = _index([(i, enrich(t, m, notes), m) for i, t, m in (impl, other)])
    assert _top_id(plain, q) == "other"
    assert _top_id(rich, q) == "impl"
    assert "software pipelining" in enrich(impl[1], impl[2], notes)
    assert "software pipelining" not in enrich(other[1], other[2], notes)


def test_lexicon_expansion_reaches_code_words_the_question_lacks():
    exp = expand("my kernel runs out of shared memory", lexicon=load_lexicon())
    assert exp.terms["shared"] == 1.0 and 0 < exp.terms["smem"] < 1
    lex = _index([("alloc", "size_t smemBytes = allocation->getSharedMemorySize(); // smem scratch",
                   _meta("alloc.cpp")),
                  ("kernel", "void launchKernel(Kernel k) { run(k); } // kernel runs here",
                   _meta("launch.cpp"))])
    plain = dict.fromkeys(tokenize("my kernel runs out of shared memory"), 1.0)
    assert _top_id(lex, plain) == "kernel"
    assert _top_id(lex, exp.terms) == "alloc"


def test_registry_expansion_adds_the_classes_of_a_named_pass():
    reg = PassRegistry([PassRecord("tritongpu-coalesce", def_name="TritonGPUCoalesce",
                                   classes=["CoalescePass"], summary="coalesce global accesses")])
    exp = expand("what does tritongpu-coalesce decide", registry=reg)
    assert "tritongpu-coalesce" in exp.passes and "coalescepass" in exp.terms
    by_summary = expand("why are global accesses not coalesced here", registry=reg)
    assert by_summary.passes == ["tritongpu-coalesce"]


def test_callees_of_deciding_lines_join_the_candidates():
    caller = textwrap.dedent("""\
        // lib/LowerLoops.cpp :: lowerLoads
        void lowerLoads(ForOp forOp) {
          for (auto load : loads)
            if (!canBeConvertedToAsyncLoad(load, axisInfo)) // async load width check
              continue;
        }""")
    callee = "// lib/Utility.cpp :: canBeConvertedToAsyncLoad\nbool canBeConvertedToAsyncLoad(LoadOp op) { return bits >= 32; }"
    rows = [("caller", caller, _meta("lib/LowerLoops.cpp", "lowerLoads")),
            ("callee", callee, _meta("lib/Utility.cpp", "canBeConvertedToAsyncLoad", start=5, end=9)),
            ("noise", "void unrelated() { async(); }", _meta("lib/N.cpp", "unrelated"))]
    lex = _index(rows)
    words = set(tokenize("why is my load not turned into an async copy"))
    assert callee_names(deciding_lines(caller, words)) == ["canBeConvertedToAsyncLoad"]
    positions = {cid: i for i, cid in enumerate(lex.ids)}
    cols = lex.columns
    pool = ranking.candidate_pool(lex, positions, dict.fromkeys(words, 1.0), [], {}, 1, 0.3, {})
    assert set(c.id for c in pool.cands.values()) == {"caller"}
    ranking.add_callees(pool, SymbolTable(cols["symbol"], cols["source"], cols["kind"]),
                        {positions["caller"]: caller}, {})
    got = {c.id: c for c in pool.cands.values()}
    assert got["callee"].callee and got["callee"].fused < got["caller"].fused


def test_reranker_orders_candidates_by_its_weights_and_the_committed_fit_covers_every_feature():
    meta = {"kind": "function", "path": "lib/Coalesce.cpp", "symbol": "getVectorWidth", "backend": "cuda"}
    words = set(tokenize("vector width of coalesced loads"))
    strong_lex = featurize(Candidate(0, "a", lex=10.0, lex_rank=1), words, {**meta, "symbol": "run"},
                           10.0, 10.0, "cuda", 50)
    named = featurize(Candidate(1, "b", lex=6.0, lex_rank=2, cover=0.8), words, meta, 10.0, 10.0,
                      "cuda", 50)
    assert set(strong_lex) == set(FEATURES) and named["sym"] > strong_lex["sym"]
    by_lex = Reranker({"lex": 1.0})
    by_name = Reranker({"lex": 0.2, "sym": 1.0, "cover": 0.5})
    assert by_lex.score(strong_lex) > by_lex.score(named)
    assert by_name.score(named) > by_name.score(strong_lex)
    fitted = load_reranker()
    if fitted is None:
        pytest.skip("no reranker fitted yet (bench/kb/fit_rerank.py writes kb/rerank.json)")
    assert set(fitted.weights) == set(FEATURES)


@pytest.fixture(scope="module")
def cards_kb(tmp_path_factory, embedder):
    """The real pattern cards, indexed the way `passwise index` does."""
    tmp = tmp_path_factory.mktemp("cards")
    manifest = tmp / "cards.toml"
    manifest.write_text(textwrap.dedent(f"""\
        name = "cards"
        [[sources]]
        name = "passwise-patterns"
        type = "dir"
        path = "{ROOT / 'corpora' / 'patterns'}"
        include = ["*.toml"]
        kind = "pattern_card"
        """))
    kb = KnowledgeBase(Store.open(tmp / "home", model_slug=embedder.slug), embedder, tmp / "home")
    index_corpus(kb, load_corpus_file(manifest), mirrors={}, progress=QUIET)
    return kb


def test_pattern_cards_carry_their_own_backend(cards_kb):
    cuda = cards_kb.search("tile does not fit in on-chip memory", k=40, filters=Filters(backend="cuda"))
    assert cuda and not [h.chunk.path for h in cuda if h.chunk.path.startswith("ascend-")]
    asc = cards_kb.search("tile does not fit in on-chip memory", k=40, filters=Filters(backend="ascend"))
    assert any(h.chunk.path == "ascend-ub-overflow.toml" for h in asc)
    assert not [h.chunk.path for h in asc if h.chunk.path.startswith("cuda-")]
    assert {h.chunk.backend for h in asc} <= {"ascend", "common"}


@pytest.mark.parametrize("config", [MAIN, SearchConfig()], ids=["main-fusion", "default"])
def test_demo_question_finds_the_card_the_softmax_diagnosis_confirms(cards_kb, config):
    # Makefile `demo`: this question, then `passwise diagnose softmax` confirms this card
    # (bench/defects/softmax-stride-do-not-specialize/case.toml expected_card).
    hits = cards_kb.search("why are global loads not vectorized after the coalesce pass", k=5,
                           config=config)
    assert "cuda-runtime-stride-no-hints.toml" in [h.chunk.path for h in hits]
