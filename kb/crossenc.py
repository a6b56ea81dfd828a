"""A cross-encoder reranker built from the packaged MiniLM: it reads question and chunk together.

The bi-encoder embeds question and chunk apart and compares two vectors; a cross-encoder feeds
`[CLS] question [SEP] chunk words [SEP]` through the transformer and a linear head gives one
relevance logit, so every question word can attend to every code word. No cross-encoder weights
are packaged, so this one starts from the all-MiniLM-L6-v2 encoder (mean pooling, as the
bi-encoder was trained) with a fresh head, and is trained on corpus pairs (kb/pairs.py: prose the
compiler's authors wrote -> the code it is about) against negatives from BM25 ranks ~20-50 in
other files, with binary cross-entropy. The top BM25 neighbours are not used as negatives: in
this corpus they are often a second right answer (bench/kb/RETRIEVAL.md, round 3).

The weights live under PASSWISE_HOME/models/minilm-cross (never the repository), rebuilt by
`python bench/kb/crossenc.py --home KB` and pinned by checksum in kb/crossenc.json. Search uses
them only when they are present and match the pin; otherwise it ranks exactly as without them.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from kb.embed import as_words
from kb.pairs import Pair, _negative_ok

CROSS_NAME = "minilm-cross"       # the folder under PASSWISE_HOME/models
WEIGHTS_FILE = "cross.safetensors"
PIN = Path(__file__).with_name("crossenc.json")
_TOKENIZER_FILES = ("config.json", "tokenizer.json", "tokenizer_config.json", "vocab.txt",
                    "special_tokens_map.json")


@dataclass(frozen=True)
class CrossArgs:
    """Everything that decides the weights besides the base model and the examples."""

    seed: int = 0
    batch_size: int = 32          # examples (a query's positive and its negatives stay together)
    negatives: int = 3            # per query, drawn from BM25 ranks neg_from..neg_to
    neg_from: int = 20
    neg_to: int = 50
    lr: float = 3e-5              # encoder
    head_lr: float = 1e-3         # the fresh linear head
    warmup: float = 0.1
    query_tokens: int = 40
    max_tokens: int = 160         # question + chunk word pieces
    threads: int = 2

    def as_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Example:
    """One (query, document, label) the cross-encoder is trained on."""

    query: str
    document: str
    label: float


def examples(pairs: list[Pair], rows: dict[str, tuple[str, dict]],
             top: Callable[[str, int], list[str]], args: CrossArgs) -> list[Example]:
    """Each pair as its positive and `args.negatives` negatives: code chunks of other files
    (kb.pairs._negative_ok: another file, another symbol, no test code, not ours) drawn seeded
    from the query's BM25 ranks neg_from..neg_to. `top(query, n)` gives chunk ids, best first;
    `rows` maps chunk id to (text, metadata). A pair with too few such negatives is dropped."""
    rng = random.Random(args.seed)
    out: list[Example] = []
    for p in pairs:
        own = rows.get(p.chunk_id, ("", {}))[1]
        ranked = top(p.query, args.neg_to)[args.neg_from - 1:]
        ok = [cid for cid in ranked if cid != p.chunk_id and _negative_ok(rows.get(cid, ("", {}))[1], own)]
        if len(ok) < args.negatives:
            continue
        out.append(Example(p.query, p.document, 1.0))
        out.extend(Example(p.query, as_words(rows[cid][0]), 0.0)
                   for cid in rng.sample(ok, args.negatives))
    return out


def examples_sha256(items: list[Example]) -> str:
    h = hashlib.sha256()
    for e in items:
        h.update(json.dumps(asdict(e), sort_keys=True).encode() + b"\n")
    return h.hexdigest()


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _network(base: Path):
    """The encoder of the model at `base` and a fresh (seeded) linear head, as one module."""
    import torch
    from transformers import AutoModel

    class Cross(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = AutoModel.from_pretrained(str(base)).float()
            self.head = torch.nn.Linear(self.encoder.config.hidden_size, 1)

        def forward(self, batch: dict):
            hidden = self.encoder(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
            return self.head(pooled).squeeze(-1)

    return Cross()


def _batch(tokenizer, queries: list[str], docs: list[str], args: CrossArgs) -> dict:
    short = [" ".join(q.split()[: args.query_tokens]) for q in queries]
    return dict(tokenizer(short, docs, truncation="only_second", max_length=args.max_tokens,
                          padding=True, return_tensors="pt"))


def train(items: list[Example], base: Path, out: Path, args: CrossArgs, log=print,
          device: str = "cpu") -> str:
    """One pass over `items` (in their order, whole batches only) from the encoder at `base`;
    writes the model folder `out` and returns the SHA-256 of its weights file. `device` "cuda"
    trains on a GPU (bench/kb/cross_gpu.py); the pin holds for the CPU run only."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import numpy as np
    import torch
    from transformers import AutoTokenizer

    torch.set_num_threads(args.threads)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    tokenizer = AutoTokenizer.from_pretrained(str(base))
    net = _network(base).to(device)
    net.train()
    opt = torch.optim.AdamW([{"params": net.encoder.parameters(), "lr": args.lr},
                             {"params": net.head.parameters(), "lr": args.head_lr}])
    steps = len(items) // args.batch_size
    warm = max(1, int(args.warmup * steps))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / max(1, steps - warm))))
    t0 = time.perf_counter()
    for step in range(steps):
        chunk = items[step * args.batch_size:(step + 1) * args.batch_size]
        batch = _batch(tokenizer, [e.query for e in chunk], [e.document for e in chunk], args)
        logits = net({k: v.to(device) for k, v in batch.items()})
        loss = torch.nn.functional.binary_cross_entropy_with_logits(
            logits, torch.tensor([e.label for e in chunk], device=device))
        loss.backward()
        opt.step()
        sched.step()
        opt.zero_grad(set_to_none=True)
        if step % 20 == 0 or step == steps - 1:
            log(f"step {step + 1}/{steps} loss {loss.item():.4f} ({time.perf_counter() - t0:.0f} s)")
    return save(net.cpu(), base, out, args)


def save(net, base: Path, out: Path, args: CrossArgs) -> str:
    """Write a cross-encoder folder (weights, the base's tokenizer and config, the arguments)
    and return the SHA-256 of its weights file."""
    from safetensors.torch import save_file

    out.mkdir(parents=True, exist_ok=True)
    save_file({k: v.contiguous() for k, v in net.state_dict().items()}, str(out / WEIGHTS_FILE))
    for name in _TOKENIZER_FILES:
        if (base / name).exists():
            shutil.copyfile(base / name, out / name)
    (out / "cross.json").write_text(json.dumps(args.as_json(), indent=1) + "\n")
    return file_sha256(out / WEIGHTS_FILE)


def untrained(base: Path, out: Path, args: CrossArgs | None = None) -> str:
    """A cross-encoder folder with the base encoder and a seeded fresh head, not trained (for
    tests of loading and pinning); returns its weights' SHA-256."""
    import torch

    args = args or CrossArgs()
    torch.manual_seed(args.seed)
    return save(_network(base), base, out, args)


class CrossEncoder:
    """A trained cross-encoder folder, loaded once; score() gives one logit per document."""

    def __init__(self, folder: Path, device: str = "cpu") -> None:
        import torch
        from safetensors.torch import load_file
        from transformers import AutoConfig, AutoModel, AutoTokenizer

        self.folder = Path(folder)
        saved = json.loads((self.folder / "cross.json").read_text(encoding="utf-8"))
        self.args = CrossArgs(**saved)
        self.tokenizer = AutoTokenizer.from_pretrained(str(self.folder))
        net = torch.nn.Module()
        net.encoder = AutoModel.from_config(AutoConfig.from_pretrained(str(self.folder)))
        net.head = torch.nn.Linear(net.encoder.config.hidden_size, 1)
        net.load_state_dict(load_file(str(self.folder / WEIGHTS_FILE)))
        net.eval()
        self.net = net.to(device)
        self.device = device

    def score(self, query: str, documents: list[str]) -> list[float]:
        """The relevance logit of each document (chunk text, any form) for the query."""
        import torch

        if not documents:
            return []
        batch = _batch(self.tokenizer, [as_words(query)] * len(documents),
                       [as_words(d) for d in documents], self.args)
        batch = {k: v.to(self.device) for k, v in batch.items()}
        with torch.inference_mode():
            hidden = self.net.encoder(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
            return self.net.head(pooled).squeeze(-1).float().cpu().tolist()


_LOADED: dict[str, CrossEncoder | None] = {}


def cross_folder(home: Path) -> Path:
    return Path(home) / "models" / CROSS_NAME


def load_pinned(home: Path, pin: Path = PIN) -> CrossEncoder | None:
    """The cross-encoder under `home` when its weights match the pin, else None (search then
    ranks as it would without one). Checked once per folder and process."""
    folder = cross_folder(home)
    key = f"{folder}|{pin}"
    if key not in _LOADED:
        _LOADED[key] = _load_checked(folder, pin)
    return _LOADED[key]


def _load_checked(folder: Path, pin: Path) -> CrossEncoder | None:
    weights = folder / WEIGHTS_FILE
    try:
        want = json.loads(pin.read_text(encoding="utf-8"))["output"]["sha256"]
    except (OSError, ValueError, KeyError):
        return None
    if not weights.exists() or file_sha256(weights) != want:
        return None
    return CrossEncoder(folder)


@dataclass(frozen=True)
class CrossStage:
    """What the second stage needs: the model, its linear weights (kb/rerank-cross*.json) and
    how many of the reranker's first candidates it reads."""

    model: CrossEncoder
    weights: dict[str, float]
    top: int


def stage_weights(model_slug: str | None) -> Path | None:
    """The second stage's weights for the reranker of `model_slug`: kb/rerank-cross-<slug>.json,
    else kb/rerank-cross.json when that model's reranker is the default one (kb/rerank.json)."""
    from kb.rerank import WEIGHTS, weights_for

    if model_slug:
        own = PIN.with_name(f"rerank-cross-{model_slug}.json")
        if own.exists():
            return own
    return PIN.with_name("rerank-cross.json") if weights_for(model_slug) == WEIGHTS else None


def load_stage(home: Path, model_slug: str | None, pin: Path = PIN,
               weights: Path | None = None) -> CrossStage | None:
    """The second stage when the pinned cross-encoder is under `home` and weights fit with
    exactly those weights are committed; None otherwise (search ranks as without it)."""
    path = weights or stage_weights(model_slug)
    if path is None or not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        pinned = json.loads(pin.read_text(encoding="utf-8"))["output"]["sha256"]
    except (OSError, ValueError, KeyError):
        return None
    if data.get("fit", {}).get("cross_encoder_sha256") != pinned:
        return None
    model = load_pinned(home, pin)
    if model is None:
        return None
    return CrossStage(model, dict(zip(data["features"], data["weights"], strict=True)),
                      int(data["top"]))
