"""Collapsed-cone line transport: energy each voxel of a cone's lines absorbs from upstream releases."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK_L = 1024


@triton.jit
def _cone_line_deposit(energy, thick, dose, L, S, stride_s, amp_a, mu_a, amp_b, mu_b,
                       BLOCK_L: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK_L)
    for blk in range(pid, tl.cdiv(L, BLOCK_L), nprog):
        line = blk * BLOCK_L + lanes
        ok = line < L
        # what reaches voxel i from upstream, carried down the line (Ahnesjo's recursion)
        up_a = tl.zeros([BLOCK_L], dtype=tl.float32)
        up_b = tl.zeros([BLOCK_L], dtype=tl.float32)
        for i in range(0, S):
            e_i = tl.load(energy + i * stride_s + line, mask=ok, other=0.0)
            x_i = tl.load(thick + i * stride_s + line, mask=ok, other=0.0)
            ta = tl.exp(-mu_a * x_i)
            tb = tl.exp(-mu_b * x_i)
            dep = amp_a * (1.0 - ta) * (e_i + up_a) + amp_b * (1.0 - tb) * (e_i + up_b)
            tl.store(dose + i * stride_s + line, dep, mask=ok)
            up_a = (up_a + e_i) * ta
            up_b = (up_b + e_i) * tb


def run(energy: torch.Tensor, thick: torch.Tensor, amp_a: float, mu_a: float,
        amp_b: float, mu_b: float) -> torch.Tensor:
    S, L = energy.shape
    dose = torch.empty((S, L), device=energy.device, dtype=energy.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(L, BLOCK_L)),)
    _cone_line_deposit[grid](energy, thick, dose, L, S, energy.stride(0), amp_a, mu_a, amp_b, mu_b,
                             BLOCK_L=BLOCK_L)
    return dose
