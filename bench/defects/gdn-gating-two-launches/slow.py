"""Gated DeltaNet gating: a softplus kernel, then a kernel that scales it by -exp(A_log) and writes beta."""
import torch
import triton
import triton.language as tl


@triton.jit
def softplus_bias_kernel(a_ptr, bias_ptr, out_ptr, T, H, BLOCK_T: tl.constexpr, BLOCK_H: tl.constexpr):
    t = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    h = tl.arange(0, BLOCK_H)
    m = (t[:, None] < T) & (h[None, :] < H)
    x = tl.load(a_ptr + t[:, None] * H + h[None, :], mask=m, other=0.0).to(tl.float32)
    x += tl.load(bias_ptr + h, mask=h < H, other=0.0)[None, :]
    sp = tl.where(x <= 20.0, tl.log(1.0 + tl.exp(x)), x)
    tl.store(out_ptr + t[:, None] * H + h[None, :], sp, mask=m)


@triton.jit
def gate_beta_kernel(sp_ptr, a_log_ptr, b_ptr, g_ptr, beta_ptr, T, H, BLOCK_T: tl.constexpr, BLOCK_H: tl.constexpr):
    t = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    h = tl.arange(0, BLOCK_H)
    m = (t[:, None] < T) & (h[None, :] < H)
    idx = t[:, None] * H + h[None, :]
    sp = tl.load(sp_ptr + idx, mask=m, other=0.0)
    neg_a = -tl.exp(tl.load(a_log_ptr + h, mask=h < H, other=0.0))
    tl.store(g_ptr + idx, neg_a[None, :] * sp, mask=m)
    b = tl.load(b_ptr + idx, mask=m, other=0.0).to(tl.float32)
    tl.store(beta_ptr + idx, tl.sigmoid(b).to(beta_ptr.dtype.element_ty), mask=m)


class GDNGating:
    """Gating of one Gated DeltaNet layer: softplus of the dt projection, then the decay and the beta gate."""

    BLOCK_T = 64

    def __init__(self, a_log: torch.Tensor, dt_bias: torch.Tensor):
        self.a_log = a_log
        self.dt_bias = dt_bias

    def _softplus(self, a: torch.Tensor) -> torch.Tensor:
        T, H = a.shape
        sp = torch.empty((T, H), device=a.device, dtype=torch.float32)
        softplus_bias_kernel[(triton.cdiv(T, self.BLOCK_T),)](a, self.dt_bias, sp, T, H, BLOCK_T=self.BLOCK_T,
                                                               BLOCK_H=triton.next_power_of_2(H))
        return sp

    def __call__(self, a: torch.Tensor, b: torch.Tensor) -> tuple:
        T, H = a.shape
        sp = self._softplus(a)
        g = torch.empty((T, H), device=a.device, dtype=torch.float32)
        beta = torch.empty_like(b)
        gate_beta_kernel[(triton.cdiv(T, self.BLOCK_T),)](sp, self.a_log, b, g, beta, T, H, BLOCK_T=self.BLOCK_T,
                                                           BLOCK_H=triton.next_power_of_2(H))
        return g, beta


def run(a_log, a, b, dt_bias) -> tuple:
    return GDNGating(a_log, dt_bias)(a, b)
