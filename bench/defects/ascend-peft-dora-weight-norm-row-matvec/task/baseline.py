"""DoRA weight-norm scale: magnitude / ||W + scaling * B @ A|| over each output row of the adapted weight."""
import torch
import triton
import triton.language as tl

NUM_AI_CORES = 20


@triton.jit
def _dora_norm_scale(w_ptr, a_ptr, b_ptr, mag_ptr, out_ptr, OUT, IN, scaling,
                     R: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    r_idx = tl.arange(0, R)
    k_idx = tl.arange(0, BLOCK_K)
    num_blocks = tl.cdiv(OUT, BLOCK_M)
    for blk in range(pid, num_blocks, nprog):
        rows = blk * BLOCK_M + tl.arange(0, BLOCK_M)
        row_ok = rows < OUT
        b = tl.load(b_ptr + rows[:, None] * R + r_idx[None, :], mask=row_ok[:, None], other=0.0)
        sq = tl.zeros((BLOCK_M,), dtype=tl.float32)
        for k0 in range(0, IN, BLOCK_K):
            cols = k0 + k_idx
            col_ok = cols < IN
            a = tl.load(a_ptr + r_idx[:, None] * IN + cols[None, :], mask=col_ok[None, :], other=0.0)
            delta = tl.dot(b, a)
            w = tl.load(w_ptr + rows[:, None] * IN + cols[None, :],
                        mask=row_ok[:, None] & col_ok[None, :], other=0.0).to(tl.float32)
            v = w + scaling * delta
            sq += tl.sum(v * v, axis=1)
        mag = tl.load(mag_ptr + rows, mask=row_ok, other=0.0)
        tl.store(out_ptr + rows, mag / tl.sqrt(sq), mask=row_ok)


def run(w: torch.Tensor, lora_a: torch.Tensor, lora_b: torch.Tensor, magnitude: torch.Tensor,
        scaling: float) -> torch.Tensor:
    OUT, IN = w.shape
    R = lora_a.shape[0]
    out = torch.empty(OUT, device=w.device, dtype=torch.float32)
    BLOCK_M = 64
    grid = (min(NUM_AI_CORES, triton.cdiv(OUT, BLOCK_M)),)
    _dora_norm_scale[grid](w, lora_a, lora_b, magnitude, out, OUT, IN, float(scaling),
                           R=R, BLOCK_M=BLOCK_M, BLOCK_K=256)
    return out
