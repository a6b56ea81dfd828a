"""Fine-tune the packaged MiniLM on corpus pairs (kb/pairs.py) with in-batch negatives, on a CPU.

A plain torch loop: each step embeds a batch of queries and their documents, scores every query
against every document of the batch (cosine x SCALE) and takes the cross-entropy towards its own
document (the multiple-negatives ranking loss of sentence-transformers). Pairs that carry a hard
negative (kb/pairs.py) add it to the batch's documents, so each query also has to beat the
BM25-nearest code of another file. Seeded and single-
process, so one machine with one torch version rebuilds the same weights; kb/finetune.json pins
their checksum (bench/kb/finetune.py checks it).
"""

from __future__ import annotations

import hashlib
import os
import random
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from kb.pairs import Pair

WEIGHTS_FILE = "model.safetensors"
TUNED_NAME = "minilm-corpus-ft"  # the folder under PASSWISE_HOME/models the command writes
TUNED_NAME_HN = "minilm-corpus-hn"  # the same, trained with hard negatives


@dataclass(frozen=True)
class TrainArgs:
    """Everything that decides the weights besides the base model and the pairs."""

    seed: int = 0
    batch_size: int = 32
    lr: float = 5e-5
    warmup: float = 0.1          # share of the steps with a linear warm-up
    scale: float = 20.0          # cosine -> logit, as in MultipleNegativesRankingLoss
    query_tokens: int = 64
    doc_tokens: int = 128        # the index embeds 128 word pieces (kb.embed.DEFAULT_MAX_TOKENS)
    freeze_layers: int = 0       # bottom transformer layers (and the embeddings) left as they are
    threads: int = 2

    def as_json(self) -> dict:
        return asdict(self)


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _seed(seed: int) -> None:
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def _freeze(model, layers: int) -> None:
    if layers <= 0:
        return
    bert = model[0].auto_model
    for p in bert.embeddings.parameters():
        p.requires_grad = False
    for layer in bert.encoder.layer[:layers]:
        for p in layer.parameters():
            p.requires_grad = False


def _encode(model, texts: list[str], max_tokens: int):
    import torch

    tok = model.tokenizer(texts, padding=True, truncation=True, max_length=max_tokens,
                          return_tensors="pt")
    out = model(dict(tok))["sentence_embedding"]
    return torch.nn.functional.normalize(out, p=2, dim=1)


def train(pairs: list[Pair], base: Path, out: Path, args: TrainArgs, log=print) -> str:
    """One epoch over `pairs` (in their order, whole batches only) from the model at `base`;
    saves the model to `out` and returns the SHA-256 of its weights file."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(args.threads)
    _seed(args.seed)
    model = SentenceTransformer(str(base), device="cpu")
    model.train()
    _freeze(model, args.freeze_layers)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=args.lr)
    steps = len(pairs) // args.batch_size
    warm = max(1, int(args.warmup * steps))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / max(1, steps - warm))))
    labels = torch.arange(args.batch_size)
    t0 = time.perf_counter()
    for step in range(steps):
        batch = pairs[step * args.batch_size:(step + 1) * args.batch_size]
        q = _encode(model, [p.query for p in batch], args.query_tokens)
        # hard negatives (kb.pairs.with_negatives) join the in-batch documents as extra columns
        d = _encode(model, [p.document for p in batch] + [p.negative for p in batch if p.negative],
                    args.doc_tokens)
        loss = torch.nn.functional.cross_entropy(q @ d.T * args.scale, labels)
        loss.backward()
        opt.step()
        sched.step()
        opt.zero_grad(set_to_none=True)
        if step % 10 == 0 or step == steps - 1:
            log(f"step {step + 1}/{steps} loss {loss.item():.4f} "
                f"({time.perf_counter() - t0:.0f} s)")
    model.eval()
    out.mkdir(parents=True, exist_ok=True)
    model.save(str(out), safe_serialization=True)
    return file_sha256(out / WEIGHTS_FILE)


def default_out(home: Path) -> Path:
    return Path(home) / "models" / TUNED_NAME


def stderr_log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)
