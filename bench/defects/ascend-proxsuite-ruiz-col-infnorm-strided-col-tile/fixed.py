"""ProxSuite dense Ruiz equilibration, column step: delta_k = 1 / (sqrt(max col |.| of H, A, C) + eps)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_FP32_EPS = 1.1920928955078125e-07  # std::numeric_limits<float>::epsilon()


@triton.jit
def _col_absmax(mat, nrows, stride, cols, cmask, acc, BR: tl.constexpr):
    # running max of |mat[:, cols]| over all rows; tiles are [rows, cols], cols contiguous
    for r0 in range(0, nrows, BR):
        rows = r0 + tl.arange(0, BR)
        m = (rows < nrows)[:, None] & cmask[None, :]
        t = tl.load(mat + rows[:, None] * stride + cols[None, :], mask=m, other=0.0)
        acc = tl.maximum(acc, tl.max(tl.abs(t), axis=0))
    return acc


@triton.jit
def _ruiz_col_scale_kernel(h, a, c, delta, n, n_eq, n_in, stride_h, stride_a, stride_c, eps,
                           BR: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for cb in range(pid, tl.cdiv(n, BC), nprog):
        cols = cb * BC + tl.arange(0, BC)
        cmask = cols < n
        acc = tl.zeros([BC], dtype=tl.float32)
        acc = _col_absmax(h, n, stride_h, cols, cmask, acc, BR)
        acc = _col_absmax(a, n_eq, stride_a, cols, cmask, acc, BR)
        acc = _col_absmax(c, n_in, stride_c, cols, cmask, acc, BR)
        aux = tl.sqrt(acc)
        d = tl.where(aux == 0.0, 1.0, 1.0 / (aux + eps))
        tl.store(delta + cols, d, mask=cmask)


def run(h: torch.Tensor, a: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    n = h.shape[1]
    delta = torch.empty(n, device=h.device, dtype=torch.float32)
    BR, BC = 64, 64
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BC)),)
    _ruiz_col_scale_kernel[grid](h, a, c, delta, n, a.shape[0], c.shape[0],
                                 h.stride(0), a.stride(0), c.stride(0), _FP32_EPS,
                                 BR=BR, BC=BC)
    return delta
