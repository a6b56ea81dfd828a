"""<O_i> on every site of a right-canonical iMPS unit cell: sum_a S_a^2 sum_b B[a,:,b]^T O B[a,:,b]."""
import torch
import triton
import triton.language as tl

BLOCK_A = 32
BLOCK_B = 128


@triton.jit
def _site_expval(b_ptr, s_ptr, op_ptr, out, chi, BLOCK_A: tl.constexpr, BLOCK_B: tl.constexpr):
    site = tl.program_id(0)
    o00 = tl.load(op_ptr)
    o_mix = tl.load(op_ptr + 1) + tl.load(op_ptr + 2)
    o11 = tl.load(op_ptr + 3)
    rows = tl.arange(0, BLOCK_A)
    cols = tl.arange(0, BLOCK_B)
    site_b = b_ptr + site * chi * 2 * chi
    acc = tl.zeros([BLOCK_A], dtype=tl.float32)
    for a0 in range(tl.program_id(1) * BLOCK_A, chi, tl.num_programs(1) * BLOCK_A):
        a = a0 + rows
        a_ok = a < chi
        row = tl.zeros([BLOCK_A], dtype=tl.float32)
        for b0 in range(0, chi, BLOCK_B):
            b = b0 + cols
            ok = a_ok[:, None] & (b < chi)[None, :]
            p = site_b + a[:, None] * (2 * chi) + b[None, :]
            up = tl.load(p, mask=ok, other=0.0)          # B[a, 0, b]
            dn = tl.load(p + chi, mask=ok, other=0.0)    # B[a, 1, b]
            row += tl.sum(o00 * up * up + o_mix * up * dn + o11 * dn * dn, axis=1)
        s = tl.load(s_ptr + site * chi + a, mask=a_ok, other=0.0)
        acc += s * s * row
    tl.atomic_add(out + site, tl.sum(acc, axis=0))


def run(b: torch.Tensor, sv: torch.Tensor, op: torch.Tensor) -> torch.Tensor:
    n_sites, chi = b.shape[0], b.shape[1]
    out = torch.zeros(n_sites, device=b.device, dtype=torch.float32)
    grid = (n_sites, triton.cdiv(chi, BLOCK_A))
    _site_expval[grid](b, sv, op, out, chi, BLOCK_A=BLOCK_A, BLOCK_B=BLOCK_B, num_warps=4)
    return out
