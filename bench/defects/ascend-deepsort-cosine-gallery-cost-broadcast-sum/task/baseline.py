"""DeepSORT nearest-neighbour cosine cost between track galleries and detections."""
import torch
import triton
import triton.language as tl


@triton.jit
def _gallery_cost(gallery, counts, dets, cost, G, D, ND, n_items, det_tiles,
                  BLOCK_G: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    gi = tl.arange(0, BLOCK_G)
    ni = tl.arange(0, BLOCK_N)
    ki = tl.arange(0, BLOCK_K)
    for item in range(pid, n_items, nprog):
        t = item // det_tiles
        n = (item % det_tiles) * BLOCK_N + ni
        nm = n < ND
        cnt = tl.load(counts + t)
        best = tl.full([BLOCK_N], float("-inf"), tl.float32)
        for g0 in range(0, cnt, BLOCK_G):
            g = g0 + gi
            gm = g < cnt
            acc = tl.zeros([BLOCK_N, BLOCK_G], dtype=tl.float32)
            for k0 in range(0, D, BLOCK_K):
                km = k0 + ki < D
                a = tl.load(gallery + (t * G + g)[:, None] * D + k0 + ki[None, :],
                            mask=gm[:, None] & km[None, :], other=0.0)
                d = tl.load(dets + n[:, None] * D + k0 + ki[None, :],
                            mask=nm[:, None] & km[None, :], other=0.0)
                acc = tl.dot(d, tl.trans(a), acc)
            acc += tl.where(gm, 0.0, float("-inf"))[None, :]
            best = tl.maximum(best, tl.max(acc, axis=1))
        tl.store(cost + t * ND + n, 1.0 - best, mask=nm)


def run(gallery: torch.Tensor, counts: torch.Tensor, dets: torch.Tensor) -> torch.Tensor:
    T, G, D = gallery.shape
    ND = dets.shape[0]
    cost = torch.empty((T, ND), device=gallery.device, dtype=torch.float32)
    BLOCK_N = 128
    det_tiles = triton.cdiv(ND, BLOCK_N)
    n_items = T * det_tiles
    _gallery_cost[(min(20, n_items),)](gallery, counts, dets, cost, G, D, ND, n_items, det_tiles,
                                       BLOCK_G=128, BLOCK_N=BLOCK_N, BLOCK_K=128)
    return cost
