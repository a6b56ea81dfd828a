"""hnswlib layer-0 expansion: squared L2 from each query to the neighbours in its candidate's link list."""
import torch
import triton
import triton.language as tl


@triton.jit
def _neighbour_l2(query, base, links, count, visited, bound, dist, D,
                  M0: tl.constexpr, BLOCK_D: tl.constexpr):
    q = tl.program_id(0)
    slot = tl.arange(0, M0)
    d = tl.arange(0, BLOCK_D)
    d_ok = d < D
    cnt = tl.load(count + q)
    in_list = slot < cnt
    ids = tl.load(links + q * M0 + slot, mask=in_list, other=0)
    fresh = tl.load(visited + q * M0 + slot, mask=in_list, other=1) == 0
    need = in_list & fresh
    qv = tl.load(query + q * D + d, mask=d_ok, other=0.0)
    rows = tl.load(base + ids[:, None] * D + d[None, :], mask=need[:, None] & d_ok[None, :], other=0.0)
    diff = rows - qv[None, :]
    l2 = tl.sum(diff * diff, axis=1)
    lower = tl.load(bound + q)
    keep = need & (l2 < lower)
    tl.store(dist + q * M0 + slot, tl.where(keep, l2, float("inf")))


def run(query, base, links, count, visited, bound):
    q, m0 = links.shape
    d = base.shape[1]
    dist = torch.empty(q, m0, device=query.device, dtype=query.dtype)
    _neighbour_l2[(q,)](query, base, links, count, visited, bound, dist, d,
                        M0=m0, BLOCK_D=triton.next_power_of_2(d), num_warps=4)
    return dist
