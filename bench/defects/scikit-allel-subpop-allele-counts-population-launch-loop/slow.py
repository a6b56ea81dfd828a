"""Per-population ref/alt allele counts of biallelic genotype calls (scikit-allel count_alleles_subpops)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _count_alleles_subpop(gt, pop, ac_pop, pop_id, V, S, stride_v,
                          BLOCK_V: tl.constexpr, BLOCK_H: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_V + tl.arange(0, BLOCK_V)
    row_ok = rows < V
    ref = tl.zeros([BLOCK_V], dtype=tl.int32)
    alt = tl.zeros([BLOCK_V], dtype=tl.int32)
    n_hap = 2 * S
    for h0 in range(0, n_hap, BLOCK_H):
        hap = h0 + tl.arange(0, BLOCK_H)
        hap_ok = hap < n_hap
        label = tl.load(pop + hap // 2, mask=hap_ok, other=-1)
        member = (label == pop_id)[None, :]
        a = tl.load(gt + rows[:, None] * stride_v + hap[None, :],
                    mask=row_ok[:, None] & hap_ok[None, :], other=-1)
        ref += tl.sum((member & (a == 0)).to(tl.int32), axis=1)
        alt += tl.sum((member & (a == 1)).to(tl.int32), axis=1)
    tl.store(ac_pop + rows * 2, ref, mask=row_ok)
    tl.store(ac_pop + rows * 2 + 1, alt, mask=row_ok)


def run(gt: torch.Tensor, pop: torch.Tensor, K: int) -> torch.Tensor:
    V, S, _ = gt.shape
    ac = torch.empty((K, V, 2), device=gt.device, dtype=torch.int32)
    BLOCK_V, BLOCK_H = 64, 128
    grid = (triton.cdiv(V, BLOCK_V),)
    for k in range(K):
        _count_alleles_subpop[grid](gt, pop, ac[k], k, V, S, gt.stride(0),
                                    BLOCK_V=BLOCK_V, BLOCK_H=BLOCK_H, num_warps=4)
    return ac
