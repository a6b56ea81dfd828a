"""Embed an indexed knowledge base again with another model, beside the original (resumable).

Usage: python bench/kb/reembed.py --home KB_COPY --model MODEL_DIR [--corpus-set main] [--limit N]
Reads every chunk of the collection the default model embedded and writes it, with the new
model's vectors, to the collection of MODEL_DIR (`pw-<set>-<model slug>-w`) in the same home; the
source states and the pass registry go along, and the store records the model (its weights'
SHA-256), so a search with another model fails in one sentence instead of ranking noise.
Chunks already in the target are skipped: a killed run continues where it stopped. --limit
embeds only the first N chunks missing, to time the model before committing to the whole index.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from kb.chunk import Chunk  # noqa: E402
from kb.embed import MODEL_STATE_KEY  # noqa: E402
from kb.search import KnowledgeBase, open_kb  # noqa: E402
from kb.store import GENERATION_KEY  # noqa: E402

PAGE = 512


def copy_state(src: KnowledgeBase, dst: KnowledgeBase) -> None:
    """Source states, the registry's copy in the store and the registry files of the home."""
    for key in src.store.state_keys():
        if key not in (GENERATION_KEY, MODEL_STATE_KEY):
            value = src.store.get_state(key)
            if value is not None:
                dst.store.put_state(key, value)
    if src.registry_path.exists():
        dst.registry_path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src.registry_path, dst.registry_path)
    folder = src.registry_path.with_suffix("")
    if folder.is_dir():
        shutil.copytree(folder, dst.registry_path.with_suffix(""), dirs_exist_ok=True)


def missing(src: KnowledgeBase, dst: KnowledgeBase) -> list[tuple[str, str, dict]]:
    have = set(dst.store.chunks.read("listing chunks", "get", include=[])["ids"])
    rows = [r for ids, docs, metas in src.store.iter_all() for r in zip(ids, docs, metas, strict=True)]
    return sorted((r for r in rows if r[0] not in have), key=lambda r: r[0])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", required=True, type=Path)
    ap.add_argument("--model", required=True, help="the model folder to embed with")
    ap.add_argument("--corpus-set", default="main")
    ap.add_argument("--limit", type=int, default=0, help="embed at most N missing chunks")
    args = ap.parse_args()
    src = open_kb(args.home, corpus_set=args.corpus_set)
    dst = open_kb(args.home, corpus_set=args.corpus_set, model=args.model)
    if src.store.name == dst.store.name:
        sys.exit("The model embeds into the collection it would read from; give another model.")
    dst.check_model(write=True)
    copy_state(src, dst)
    todo = missing(src, dst)
    todo = todo[: args.limit] if args.limit else todo
    print(f"{len(todo)} chunks to embed into {dst.store.name}", flush=True)
    t0 = time.perf_counter()
    for lo in range(0, len(todo), PAGE):
        part = todo[lo : lo + PAGE]
        chunks = [Chunk.from_metadata(d, m) for _, d, m in part]
        dst.store.upsert(chunks, dst.embedder.embed([c.text for c in chunks]))
        done, dt = lo + len(part), time.perf_counter() - t0
        print(f"{done}/{len(todo)} in {dt:.0f} s ({done / dt:.1f} chunks/s, "
              f"{(len(todo) - done) * dt / done / 60:.1f} min left)", flush=True)
    print(f"{dst.store.name}: {dst.store.count()} chunks, {src.store.count()} in the source")
    return 0


if __name__ == "__main__":
    sys.exit(main())
