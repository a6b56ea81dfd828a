"""GraphCast Grid2Mesh aggregation: sum the receiver-sorted edge latents onto their mesh nodes (CSC)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _grid2mesh_segment_sum(msg_ptr, row_ptr, out_ptr, N, D, stride_m, stride_o,
                           BE: tl.constexpr, BD: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BD)
    cmask = cols < D
    offs_e = tl.arange(0, BE)
    for node in range(pid, N, nprog):
        start = tl.load(row_ptr + node)
        end = tl.load(row_ptr + node + 1)
        acc = tl.zeros([BD], dtype=tl.float32)
        for k in range(start, end, BE):
            edges = k + offs_e
            mask = (edges < end)[:, None] & cmask[None, :]
            tile = tl.load(msg_ptr + edges[:, None] * stride_m + cols[None, :], mask=mask, other=0.0)
            acc += tl.sum(tile, axis=0)
        tl.store(out_ptr + node * stride_o + cols, acc, mask=cmask)


def run(msg: torch.Tensor, row_ptr: torch.Tensor, max_degree: int) -> torch.Tensor:
    E, D = msg.shape
    N = row_ptr.numel() - 1
    out = torch.empty((N, D), device=msg.device, dtype=msg.dtype)
    BD = triton.next_power_of_2(D)
    grid = (min(_VECTOR_CORES, N),)
    _grid2mesh_segment_sum[grid](msg, row_ptr, out, N, D, msg.stride(0), out.stride(0),
                                 BE=16, BD=BD)
    return out
