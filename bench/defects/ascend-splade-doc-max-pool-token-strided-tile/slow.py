"""SPLADE max pooling over document tokens: persistent programs over (document, vocabulary tile) items."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _splade_max_pool(logits, lengths, out, L, V, n_vtiles, n_items,
                     BLOCK_L: tl.constexpr, BLOCK_V: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    tok = tl.arange(0, BLOCK_L)
    voc = tl.arange(0, BLOCK_V)
    for item in range(pid, n_items, nprog):
        b = item // n_vtiles
        v0 = (item - b * n_vtiles) * BLOCK_V
        cols = v0 + voc
        col_ok = cols < V
        n_tok = tl.load(lengths + b)
        base = logits + b * L * V
        w = tl.zeros([BLOCK_V], dtype=tl.float32)
        for l0 in range(0, n_tok, BLOCK_L):
            rows = l0 + tok
            mask = col_ok[:, None] & (rows < n_tok)[None, :]
            x = tl.load(base + cols[:, None] + rows[None, :] * V, mask=mask, other=0.0)
            t = tl.log(1.0 + tl.maximum(x.to(tl.float32), 0.0))
            w = tl.maximum(w, tl.max(t, axis=1))
        tl.store(out + b * V + cols, w, mask=col_ok)


def run(logits: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    B, L, V = logits.shape
    out = torch.empty((B, V), device=logits.device, dtype=torch.float32)
    BLOCK_L, BLOCK_V = 8, 512
    n_vtiles = triton.cdiv(V, BLOCK_V)
    n_items = B * n_vtiles
    grid = (min(NUM_VECTOR_CORES, n_items),)
    _splade_max_pool[grid](logits, lengths, out, L, V, n_vtiles, n_items,
                           BLOCK_L=BLOCK_L, BLOCK_V=BLOCK_V)
    return out
