"""Per-population ref/alt allele counts of biallelic genotype calls (scikit-allel count_alleles_subpops)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _count_alleles_subpops(gt, pop, ac, V, S, K, stride_v,
                           BLOCK_V: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_V + tl.arange(0, BLOCK_V)
    row_ok = rows < V
    pops = tl.arange(0, BLOCK_K)
    alt_acc = tl.zeros([BLOCK_V, BLOCK_K], dtype=tl.float32)
    called_acc = tl.zeros([BLOCK_V, BLOCK_K], dtype=tl.float32)
    n_hap = 2 * S
    for h0 in range(0, n_hap, BLOCK_H):
        hap = h0 + tl.arange(0, BLOCK_H)
        hap_ok = hap < n_hap
        label = tl.load(pop + hap // 2, mask=hap_ok, other=-1)
        member = (label[:, None] == pops[None, :]).to(tl.float16)
        a = tl.load(gt + rows[:, None] * stride_v + hap[None, :],
                    mask=row_ok[:, None] & hap_ok[None, :], other=-1)
        alt_acc = tl.dot((a == 1).to(tl.float16), member, alt_acc)
        called_acc = tl.dot((a >= 0).to(tl.float16), member, called_acc)
    alt = alt_acc.to(tl.int32)
    ref = called_acc.to(tl.int32) - alt
    out = ac + pops[None, :] * (V * 2) + rows[:, None] * 2
    ok = row_ok[:, None] & (pops[None, :] < K)
    tl.store(out, ref, mask=ok)
    tl.store(out + 1, alt, mask=ok)


def run(gt: torch.Tensor, pop: torch.Tensor, K: int) -> torch.Tensor:
    V, S, _ = gt.shape
    ac = torch.empty((K, V, 2), device=gt.device, dtype=torch.int32)
    BLOCK_V, BLOCK_H = 64, 128
    BLOCK_K = max(16, triton.next_power_of_2(K))
    grid = (triton.cdiv(V, BLOCK_V),)
    _count_alleles_subpops[grid](gt, pop, ac, V, S, K, gt.stride(0),
                                 BLOCK_V=BLOCK_V, BLOCK_H=BLOCK_H, BLOCK_K=BLOCK_K, num_warps=4)
    return ac
