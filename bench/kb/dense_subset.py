"""The dense retriever alone on a sub-corpus, for comparing embedding models without re-embedding
the whole index (issue 12, round 3: hard negatives).

Usage: python bench/kb/dense_subset.py --home KB --model NAME=DIR[:stored] ... [--others 5000]
The sub-corpus is every chunk of a file that holds a development truth plus a seeded draw of
`--others` other chunks; each development question (held-out ones are never read) is ranked
against it by cosine with each model (backend filter on, as in the bench), and Recall@1/5/10 and
MRR@10 are printed per model. `DIR:stored` reads the vectors that bench/kb/reembed.py (or the
indexer) already stored for that model instead of embedding the sub-corpus again; `packaged`
names the default model. The figures are for comparing models with each other, not with the
full-index bench: a sub-corpus holds fewer distractors.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "kb"))

from retrieval import QUESTIONS, metrics  # noqa: E402

from kb.search import backend_family, open_kb  # noqa: E402


def sub_corpus(lex, questions: list[dict], others: int, seed: int = 0) -> list[int]:
    """Document indices: the truth files' chunks and a seeded draw of the rest."""
    files = {(t["repo"], t["path"]) for q in questions for t in q["truth"]}
    src, path = lex.columns["source"], lex.columns["path"]
    mine = [i for i in range(len(lex)) if (str(src[i]), str(path[i])) in files]
    rest = np.setdiff1d(np.arange(len(lex)), mine)
    draw = np.random.default_rng(seed).choice(rest, min(others, len(rest)), replace=False)
    return sorted(mine + draw.tolist())


def vectors(home: Path, model: str, ids: list[str], texts: list[str]) -> tuple[np.ndarray, object]:
    """Chunk vectors (stored ones for `DIR:stored`, else freshly embedded) and the embedder."""
    stored = model.endswith(":stored")
    model = model.removesuffix(":stored")
    kb = open_kb(home, corpus_set="main", model=None if model == "packaged" else model)
    if stored:
        got = kb.store.chunks.read("reading vectors", "get", ids=ids, include=["embeddings"])
        by_id = dict(zip(got["ids"], got["embeddings"], strict=True))
        return np.array([by_id[i] for i in ids], dtype=np.float32), kb
    return np.array(kb.embedder.embed(texts), dtype=np.float32), kb


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", required=True, type=Path)
    ap.add_argument("--model", action="append", required=True, help="NAME=DIR[:stored]")
    ap.add_argument("--others", type=int, default=5000)
    args = ap.parse_args()
    qs = [q for q in tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["q"] if q["part"] == "dev"]
    base = open_kb(args.home, corpus_set="main")
    lex = base.lexical()
    docs = sub_corpus(lex, qs, args.others)
    ids = [lex.ids[i] for i in docs]
    texts = {cid: c.text for cid, c in base.chunks(ids).items()}
    meta = {k: lex.columns[k][docs] for k in ("source", "path", "backend")}
    starts = {cid: (c.start_line, c.end_line) for cid, c in base.chunks(ids).items()}
    print(f"sub-corpus: {len(ids)} chunks ({len(docs) - args.others} in truth files); "
          f"{len(qs)} development questions")
    for spec in args.model:
        name, model = spec.split("=", 1)
        vecs, kb = vectors(args.home, model, ids, [texts[i] for i in ids])
        ranks = []
        for q in qs:
            qv = np.asarray(kb.embedder.embed_query(q["question"]), dtype=np.float32)
            ok = np.isin(meta["backend"], backend_family(q["backend"]))
            order = [j for j in np.argsort(-(vecs @ qv)) if ok[j]][:10]
            ranks.append(next((r + 1 for r, j in enumerate(order) if any(
                meta["source"][j] == t["repo"] and meta["path"][j] == t["path"]
                and starts[ids[j]][0] <= t["end_line"] and starts[ids[j]][1] >= t["start_line"]
                for t in q["truth"])), None))
        print(f"  {name:10} {metrics(ranks)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
