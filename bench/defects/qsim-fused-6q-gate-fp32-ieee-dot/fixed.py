"""Fused k-qubit gate on the k lowest qubits: Psi' = Psi U^T over the [2^(n-k), 2^k] view, re/im planes."""
import torch
import triton
import triton.language as tl


@triton.jit
def _apply_low_qubit_matrix(re_ptr, im_ptr, ur_ptr, ui_ptr, out_re_ptr, out_im_ptr, n_rows,
                            K: tl.constexpr, BLOCK_M: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, K)
    in_range = (rows < n_rows)[:, None]
    offs = rows[:, None] * K + cols[None, :]
    a = tl.load(re_ptr + offs, mask=in_range, other=0.0)
    b = tl.load(im_ptr + offs, mask=in_range, other=0.0)
    ut_offs = cols[:, None] + cols[None, :] * K
    ur_t = tl.load(ur_ptr + ut_offs)
    ui_t = tl.load(ui_ptr + ut_offs)
    out_re = tl.dot(a, ur_t, input_precision="tf32")
    out_re = tl.dot(-b, ui_t, out_re, input_precision="tf32")
    out_im = tl.dot(a, ui_t, input_precision="tf32")
    out_im = tl.dot(b, ur_t, out_im, input_precision="tf32")
    tl.store(out_re_ptr + offs, out_re, mask=in_range)
    tl.store(out_im_ptr + offs, out_im, mask=in_range)


def run(re: torch.Tensor, im: torch.Tensor, u_re: torch.Tensor, u_im: torch.Tensor) -> tuple:
    K = u_re.shape[0]
    n_rows = re.numel() // K
    out_re = torch.empty_like(re)
    out_im = torch.empty_like(im)
    BLOCK_M = 128
    _apply_low_qubit_matrix[(triton.cdiv(n_rows, BLOCK_M),)](
        re, im, u_re, u_im, out_re, out_im, n_rows, K=K, BLOCK_M=BLOCK_M, num_warps=8)
    return out_re, out_im
