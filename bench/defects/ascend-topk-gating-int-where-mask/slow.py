"""MoE top-k gating softmax for triton-ascend: each vector core loops over 64-token tiles of the router
logits; padded expert lanes and padding tokens are masked with tl.where on the index compares."""
import torch
import triton
import triton.language as tl

TOPK = 4
NUM_VECTOR_CORES = 48   # Atlas A2: 24 AI cores x 2 vector cores


@triton.jit
def topk_gating_kernel(logits_ptr, weights_ptr, ids_ptr, T, E, num_valid,
                       TOPK: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_E: tl.constexpr):
    cols = tl.arange(0, BLOCK_E)
    n_tiles = tl.cdiv(T, BLOCK_T)
    for tile in range(tl.program_id(0), n_tiles, tl.num_programs(0)):
        rows = tile * BLOCK_T + tl.arange(0, BLOCK_T)
        in_rows = rows < T
        x = tl.load(logits_ptr + rows[:, None] * E + cols[None, :],
                    mask=in_rows[:, None] & (cols[None, :] < E), other=0.0)
        # lanes past the last expert must never be picked
        x = tl.where(cols[None, :] < E, x, float("-inf"))
        e = tl.exp(x - tl.max(x, axis=1)[:, None])
        p = e / tl.sum(e, axis=1)[:, None]
        # tokens past num_valid only pad the batch to the captured graph size
        real = rows < num_valid
        for k in tl.static_range(TOPK):
            w = tl.max(p, axis=1)
            idx = tl.argmax(p, axis=1)
            tl.store(weights_ptr + rows * TOPK + k, tl.where(real, w, 0.0), mask=in_rows)
            tl.store(ids_ptr + rows * TOPK + k, tl.where(real, idx, -1), mask=in_rows)
            p = tl.where(cols[None, :] == idx[:, None], -1.0, p)


def run(router_logits: torch.Tensor, num_valid: int) -> tuple:
    T, E = router_logits.shape
    weights = torch.empty((T, TOPK), dtype=torch.float32, device=router_logits.device)
    ids = torch.empty((T, TOPK), dtype=torch.int32, device=router_logits.device)
    BLOCK_T = 64
    grid = (min(triton.cdiv(T, BLOCK_T), NUM_VECTOR_CORES),)
    topk_gating_kernel[grid](router_logits, weights, ids, T, E, num_valid,
                             TOPK=TOPK, BLOCK_T=BLOCK_T, BLOCK_E=triton.next_power_of_2(E))
    return weights, ids
