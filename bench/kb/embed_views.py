"""Embed the comment view of every code chunk of an index (kb/views.py) into KB/views/.

Usage: python bench/kb/embed_views.py --home KB_COPY [--model MODEL_DIR] [--corpus-set main]
Reads the chunks of the collection the model embedded, embeds the comment lines of each chunk
that has enough of them with the same model, and writes KB/views/<collection>.comments.npz
with the model's weights checksum. Search then gives the reranker one more feature, the
question's cosine with a candidate's comments (`comment_dense`); refit it with fit_rerank.py.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from kb.search import open_kb  # noqa: E402
from kb.views import CommentViews, comment_view, views_path  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", required=True, type=Path)
    ap.add_argument("--model", help="the index's embedding model folder (default: the packaged one)")
    ap.add_argument("--corpus-set", default="main")
    args = ap.parse_args()
    kb = open_kb(args.home, corpus_set=args.corpus_set, model=args.model)
    kb.check_model()
    views = sorted((cid, v) for ids, docs, metas in kb.store.iter_all()
                   for cid, d, m in zip(ids, docs, metas, strict=True)
                   if (v := comment_view(d, m.get("kind", ""))) is not None)
    print(f"{len(views)} chunks with a comment view in {kb.store.name}", flush=True)
    t0 = time.perf_counter()
    vecs = np.asarray(kb.embedder.embed(
        [v for _, v in views],
        progress=lambda n: print(f"  +{n} ({time.perf_counter() - t0:.0f} s)", flush=True)),
        dtype=np.float32)
    out = views_path(args.home, kb.store.name)
    CommentViews({cid: n for n, (cid, _) in enumerate(views)}, vecs,
                 kb.embedder.record()["sha256"] or "").save(out)
    print(f"wrote {out} in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
