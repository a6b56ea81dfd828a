"""The MiniLM sentence encoder in plain torch, so it can train where transformers is not installed.

The device host that trains the corpus-tuned model (bench/kb/gpu_finetune.py) has torch and
numpy but neither transformers nor sentence-transformers. This module is the same network as the
packaged all-MiniLM-L6-v2 (a 6-layer BERT, 384 wide, 12 heads, mean pooling over the attention
mask, then L2 normalisation) with its parameters named as in the model's `model.safetensors`, so
a state dict moves between the two without renaming. tests/test_minibert.py checks that it gives
sentence-transformers' vectors for the packaged weights.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F

WORD_EMBEDDINGS = "embeddings.word_embeddings.weight"
# Keys of the safetensors file this network has no use for (BERT's pooler; a buffer).
UNUSED_KEYS = ("pooler.dense.weight", "pooler.dense.bias", "embeddings.position_ids")


@dataclass(frozen=True)
class Config:
    vocab: int = 30522
    hidden: int = 384
    layers: int = 6
    heads: int = 12
    intermediate: int = 1536
    positions: int = 512
    types: int = 2
    eps: float = 1e-12
    dropout: float = 0.1

    @classmethod
    def from_json(cls, cfg: dict) -> Config:
        return cls(vocab=cfg["vocab_size"], hidden=cfg["hidden_size"],
                   layers=cfg["num_hidden_layers"], heads=cfg["num_attention_heads"],
                   intermediate=cfg["intermediate_size"],
                   positions=cfg["max_position_embeddings"], types=cfg["type_vocab_size"],
                   eps=cfg["layer_norm_eps"], dropout=cfg["hidden_dropout_prob"])


class _Linear(nn.Module):
    def __init__(self, n_in: int, n_out: int) -> None:
        super().__init__()
        self.dense = nn.Linear(n_in, n_out)


class _Residual(nn.Module):
    """dense -> dropout -> add the input -> LayerNorm (BERT's `output` blocks)."""

    def __init__(self, n_in: int, n_out: int, eps: float) -> None:
        super().__init__()
        self.dense = nn.Linear(n_in, n_out)
        self.LayerNorm = nn.LayerNorm(n_out, eps=eps)

    def forward(self, h: torch.Tensor, skip: torch.Tensor, p: float) -> torch.Tensor:
        return self.LayerNorm(skip + F.dropout(self.dense(h), p, self.training))


class _SelfAttention(nn.Module):
    def __init__(self, c: Config) -> None:
        super().__init__()
        self.query = nn.Linear(c.hidden, c.hidden)
        self.key = nn.Linear(c.hidden, c.hidden)
        self.value = nn.Linear(c.hidden, c.hidden)


class _Attention(nn.Module):
    def __init__(self, c: Config) -> None:
        super().__init__()
        self.self = _SelfAttention(c)
        self.output = _Residual(c.hidden, c.hidden, c.eps)


class _Layer(nn.Module):
    def __init__(self, c: Config) -> None:
        super().__init__()
        self.c = c
        self.attention = _Attention(c)
        self.intermediate = _Linear(c.hidden, c.intermediate)
        self.output = _Residual(c.intermediate, c.hidden, c.eps)

    def forward(self, x: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        h, d = self.c.heads, self.c.hidden // self.c.heads
        a = self.attention.self

        def split(y: torch.Tensor) -> torch.Tensor:
            return y.view(b, t, h, d).transpose(1, 2)

        ctx = F.scaled_dot_product_attention(
            split(a.query(x)), split(a.key(x)), split(a.value(x)), attn_mask=keep,
            dropout_p=self.c.dropout if self.training else 0.0, scale=1.0 / math.sqrt(d))
        ctx = ctx.transpose(1, 2).reshape(b, t, h * d)
        x = self.attention.output(ctx, x, self.c.dropout)
        inner = F.gelu(self.intermediate.dense(x))  # BERT's exact (erf) GELU
        return self.output(inner, x, self.c.dropout)


class _Embeddings(nn.Module):
    def __init__(self, c: Config) -> None:
        super().__init__()
        self.word_embeddings = nn.Embedding(c.vocab, c.hidden)
        self.position_embeddings = nn.Embedding(c.positions, c.hidden)
        self.token_type_embeddings = nn.Embedding(c.types, c.hidden)
        self.LayerNorm = nn.LayerNorm(c.hidden, eps=c.eps)


class _Encoder(nn.Module):
    def __init__(self, c: Config) -> None:
        super().__init__()
        self.layer = nn.ModuleList(_Layer(c) for _ in range(c.layers))


class SentenceEncoder(nn.Module):
    """Token ids and their mask -> L2-normalised mean-pooled sentence vectors."""

    def __init__(self, c: Config) -> None:
        super().__init__()
        self.c = c
        self.embeddings = _Embeddings(c)
        self.encoder = _Encoder(c)

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        e = self.embeddings
        pos = torch.arange(ids.shape[1], device=ids.device)
        x = e.word_embeddings(ids) + e.position_embeddings(pos)[None] \
            + e.token_type_embeddings.weight[0]
        x = F.dropout(e.LayerNorm(x), self.c.dropout, self.training)
        keep = mask.bool()[:, None, None, :]
        for layer in self.encoder.layer:
            x = layer(x, keep)
        m = mask.to(x.dtype)[:, :, None]
        pooled = (x * m).sum(1) / m.sum(1).clamp(min=1e-9)
        return F.normalize(pooled, p=2, dim=1)


def load(state: dict[str, torch.Tensor], config: Config | None = None) -> SentenceEncoder:
    """A float32 encoder holding `state` (the safetensors keys; unused ones are dropped)."""
    net = SentenceEncoder(config or Config())
    own = {k: v.float() for k, v in state.items() if k not in UNUSED_KEYS}
    missing, unexpected = net.load_state_dict(own, strict=False)
    if missing or unexpected:
        raise KeyError(f"state dict does not fit the encoder: missing {missing[:3]}, "
                       f"unexpected {unexpected[:3]}")
    return net


def encode(net: SentenceEncoder, ids, lengths, batch: int = 256, device: str = "cpu"):
    """Vectors for padded token-id rows (numpy [n, T]) with their lengths, in batches, each batch
    cut to its longest row (padding does not change the vectors: it is masked out)."""
    import numpy as np

    out = []
    net.eval()
    with torch.inference_mode():
        for lo in range(0, len(ids), batch):
            n = int(lengths[lo:lo + batch].max())
            x = torch.as_tensor(np.asarray(ids[lo:lo + batch, :n], dtype=np.int64), device=device)
            m = torch.arange(n, device=device)[None] < torch.as_tensor(
                np.asarray(lengths[lo:lo + batch]), device=device)[:, None]
            out.append(net(x, m).float().cpu().numpy())
    return np.concatenate(out) if out else np.zeros((0, net.c.hidden), dtype=np.float32)
