"""Baseline router gate: tl.dot per K step, programs per core."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 48  # Atlas A2 (910B)


@triton.jit
def router_gate_kernel(x_ptr, w_ptr, out_ptr, T, H, E, BLOCK_T: tl.constexpr, BLOCK_K: tl.constexpr,
                       BLOCK_E: tl.constexpr):
    es = tl.arange(0, BLOCK_E)
    ks = tl.arange(0, BLOCK_K)
    for tb in range(tl.program_id(0), tl.cdiv(T, BLOCK_T), tl.num_programs(0)):
        ts = tb * BLOCK_T + tl.arange(0, BLOCK_T)
        acc = tl.zeros((BLOCK_T, BLOCK_E), dtype=tl.float32)
        for k in range(0, H, BLOCK_K):
            x = tl.load(x_ptr + ts[:, None] * H + (k + ks)[None, :],
                        mask=(ts[:, None] < T) & ((k + ks)[None, :] < H), other=0.0)
            w = tl.load(w_ptr + es[:, None] * H + (k + ks)[None, :],
                        mask=(es[:, None] < E) & ((k + ks)[None, :] < H), other=0.0)
            acc = tl.dot(x, tl.trans(w), acc)
        tl.store(out_ptr + ts[:, None] * E + es[None, :], acc, mask=(ts[:, None] < T) & (es[None, :] < E))


def run(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    T, H = x.shape
    E = w.shape[0]
    out = torch.empty((T, E), dtype=torch.float32, device=x.device)
    grid = (min(NUM_VECTOR_CORES, triton.cdiv(T, 64)),)
    router_gate_kernel[grid](x, w, out, T, H, E, BLOCK_T=64, BLOCK_K=128, BLOCK_E=triton.next_power_of_2(E))
    return out
