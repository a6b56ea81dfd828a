"""scikit-learn OneClassSVM.decision_function, RBF kernel: sum_s alpha_s exp(-gamma |x - sv_s|^2) - rho."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20
BQ = 64
BS = 128


@triton.jit
def _ocsvm_decision(x_ptr, sv_ptr, alpha_ptr, out_ptr, N, S, F, stride_x, stride_sv, gamma, rho,
                    BQ: tl.constexpr, BS: tl.constexpr, BF: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    f = tl.arange(0, BF)
    fmask = f < F
    for blk in range(pid, tl.cdiv(N, BQ), nprog):
        q = blk * BQ + tl.arange(0, BQ)
        qmask = q < N
        x = tl.load(x_ptr + q[:, None] * stride_x + f[None, :], mask=qmask[:, None] & fmask[None, :], other=0.0)
        xn = tl.sum(x * x, axis=1)
        acc = tl.zeros([BQ], dtype=tl.float32)
        for s0 in range(0, S, BS):
            s = s0 + tl.arange(0, BS)
            smask = s < S
            sv = tl.load(sv_ptr + s[:, None] * stride_sv + f[None, :], mask=smask[:, None] & fmask[None, :],
                         other=0.0)
            a = tl.load(alpha_ptr + s, mask=smask, other=0.0)
            sn = tl.sum(sv * sv, axis=1)
            xs = tl.dot(x, tl.trans(sv))
            d2 = tl.maximum(xn[:, None] + sn[None, :] - 2.0 * xs, 0.0)
            acc += tl.sum(tl.exp(-gamma * d2) * a[None, :], axis=1)
        tl.store(out_ptr + q, acc - rho, mask=qmask)


def run(x: torch.Tensor, sv: torch.Tensor, alpha: torch.Tensor, gamma: float, rho: float) -> torch.Tensor:
    N, F = x.shape
    S = sv.shape[0]
    out = torch.empty(N, device=x.device, dtype=x.dtype)
    grid = (min(_AI_CORES, triton.cdiv(N, BQ)),)
    _ocsvm_decision[grid](x, sv, alpha, out, N, S, F, x.stride(0), sv.stride(0), gamma, rho,
                          BQ=BQ, BS=BS, BF=triton.next_power_of_2(F))
    return out
