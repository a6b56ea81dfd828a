"""DoRA weight-norm scale: magnitude / ||W + scaling * B @ A|| over each output row of the adapted weight."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _dora_norm_scale(w_ptr, a_ptr, b_ptr, mag_ptr, out_ptr, OUT, IN, scaling,
                     R: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    r_idx = tl.arange(0, R)
    k_idx = tl.arange(0, BLOCK_K)
    for row in range(pid, OUT, nprog):
        b = tl.load(b_ptr + row * R + r_idx).to(tl.float32)
        sq = tl.zeros((BLOCK_K,), dtype=tl.float32)
        for k0 in range(0, IN, BLOCK_K):
            cols = k0 + k_idx
            col_ok = cols < IN
            a = tl.load(a_ptr + r_idx[:, None] * IN + cols[None, :], mask=col_ok[None, :], other=0.0)
            delta = tl.sum(b[:, None] * a.to(tl.float32), axis=0)
            w = tl.load(w_ptr + row * IN + cols, mask=col_ok, other=0.0).to(tl.float32)
            v = w + scaling * delta
            sq += v * v
        mag = tl.load(mag_ptr + row)
        tl.store(out_ptr + row, mag / tl.sqrt(tl.sum(sq, axis=0)))


def run(w: torch.Tensor, lora_a: torch.Tensor, lora_b: torch.Tensor, magnitude: torch.Tensor,
        scaling: float) -> torch.Tensor:
    OUT, IN = w.shape
    R = lora_a.shape[0]
    out = torch.empty(OUT, device=w.device, dtype=torch.float32)
    grid = (min(NUM_VECTOR_CORES, OUT),)
    _dora_norm_scale[grid](w, lora_a, lora_b, magnitude, out, OUT, IN, float(scaling),
                           R=R, BLOCK_K=256)
    return out
