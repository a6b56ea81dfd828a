"""NequIP convolution aggregation: scatter-sum of edge messages onto centre atoms, / sqrt(avg_num_neighbors)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _conv_aggregate(feats, center, center_ptr, out, E, N, F, inv_norm, stride_f, stride_o,
                    BE: tl.constexpr, BF: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BF)
    cmask = cols < F
    for blk in range(pid, tl.cdiv(E, BE), nprog):
        rows = blk * BE + tl.arange(0, BE)
        rmask = rows < E
        mask = rmask[:, None] & cmask[None, :]
        x = tl.load(feats + rows[:, None] * stride_f + cols[None, :], mask=mask, other=0.0)
        c = tl.load(center + rows, mask=rmask, other=0)
        tl.atomic_add(out + c[:, None] * stride_o + cols[None, :], x * inv_norm, mask=mask)


def run(edge_features: torch.Tensor, edge_center: torch.Tensor, center_ptr: torch.Tensor,
        avg_num_neighbors: float) -> torch.Tensor:
    E, F = edge_features.shape
    N = center_ptr.shape[0] - 1
    out = torch.zeros((N, F), device=edge_features.device, dtype=edge_features.dtype)
    BF = triton.next_power_of_2(F)
    BE = max(1, 4096 // BF)
    grid = (max(1, min(_VECTOR_CORES, triton.cdiv(E, BE))),)
    _conv_aggregate[grid](edge_features, edge_center, center_ptr, out, E, N, F,
                          1.0 / avg_num_neighbors ** 0.5, edge_features.stride(0), out.stride(0),
                          BE=BE, BF=BF)
    return out
