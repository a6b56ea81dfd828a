"""Ghost-clipping per-sample gradient norms of a Linear layer from the Gram matrices A A^T and G G^T."""
import torch
import triton
import triton.language as tl

BLOCK_T = 32
BLOCK_D = 8


@triton.jit
def _gram_tile_products(a_ptr, g_ptr, part_ptr, T, D_IN, D_OUT, sa_b, sa_t, sg_b, sg_t, n_t,
                        BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    pair = tl.program_id(1)
    ti = pair // n_t
    tj = pair % n_t
    rows_i = ti * BLOCK_T + tl.arange(0, BLOCK_T)
    rows_j = tj * BLOCK_T + tl.arange(0, BLOCK_T)
    ok_i = rows_i < T
    ok_j = rows_j < T
    d = tl.arange(0, BLOCK_D)

    # tile (ti, tj) of A A^T over D_in
    a_i = a_ptr + b * sa_b + rows_i[:, None] * sa_t
    a_j = a_ptr + b * sa_b + rows_j[:, None] * sa_t
    aat = tl.zeros([BLOCK_T, BLOCK_T], dtype=tl.float32)
    for k in range(0, D_IN, BLOCK_D):
        cols = k + d
        x = tl.load(a_i + cols[None, :], mask=ok_i[:, None] & (cols[None, :] < D_IN), other=0.0)
        y = tl.load(a_j + cols[None, :], mask=ok_j[:, None] & (cols[None, :] < D_IN), other=0.0)
        aat += tl.sum(x.to(tl.float32)[:, None, :] * y.to(tl.float32)[None, :, :], axis=2)

    # the same tile of G G^T over D_out
    g_i = g_ptr + b * sg_b + rows_i[:, None] * sg_t
    g_j = g_ptr + b * sg_b + rows_j[:, None] * sg_t
    ggt = tl.zeros([BLOCK_T, BLOCK_T], dtype=tl.float32)
    for k in range(0, D_OUT, BLOCK_D):
        cols = k + d
        x = tl.load(g_i + cols[None, :], mask=ok_i[:, None] & (cols[None, :] < D_OUT), other=0.0)
        y = tl.load(g_j + cols[None, :], mask=ok_j[:, None] & (cols[None, :] < D_OUT), other=0.0)
        ggt += tl.sum(x.to(tl.float32)[:, None, :] * y.to(tl.float32)[None, :, :], axis=2)

    tl.store(part_ptr + b * n_t * n_t + pair, tl.sum(tl.sum(aat * ggt, axis=1), axis=0))


@triton.jit
def _ghost_norm(part_ptr, norm_ptr, n_pairs, PAIRS_POW2: tl.constexpr):
    b = tl.program_id(0)
    p = tl.arange(0, PAIRS_POW2)
    sq = tl.sum(tl.load(part_ptr + b * n_pairs + p, mask=p < n_pairs, other=0.0), axis=0)
    tl.store(norm_ptr + b, tl.sqrt(tl.maximum(sq, 0.0)))


def run(activations: torch.Tensor, backprops: torch.Tensor) -> torch.Tensor:
    B, T, d_in = activations.shape
    d_out = backprops.shape[2]
    n_t = triton.cdiv(T, BLOCK_T)
    n_pairs = n_t * n_t
    partials = torch.empty(B * n_pairs, device=activations.device, dtype=torch.float32)
    norms = torch.empty(B, device=activations.device, dtype=torch.float32)
    _gram_tile_products[(B, n_pairs)](activations, backprops, partials, T, d_in, d_out,
                                      activations.stride(0), activations.stride(1),
                                      backprops.stride(0), backprops.stride(1), n_t,
                                      BLOCK_T=BLOCK_T, BLOCK_D=BLOCK_D, num_warps=4, num_stages=3)
    _ghost_norm[(B,)](partials, norms, n_pairs, PAIRS_POW2=triton.next_power_of_2(n_pairs), num_warps=4)
    return norms
