"""dS/dVa and dS/dVm (MATPOWER dSbus_dV, polar) at every Ybus nonzero for S scenarios."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _dsbus_dv(row, col, y, v, ibus, jac, NNZ, NB, S, BS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    total = NNZ * S
    plane = NB * S
    s = tl.arange(0, BS)
    m = s < S
    for k in range(pid, NNZ, nprog):
        i = tl.load(row + k)
        j = tl.load(col + k)
        g = tl.load(y + k)
        h = tl.load(y + NNZ + k)
        ar = tl.load(v + i * S + s, mask=m, other=1.0)
        ai = tl.load(v + plane + i * S + s, mask=m, other=0.0)
        cr = tl.load(v + j * S + s, mask=m, other=1.0)
        ci = tl.load(v + plane + j * S + s, mask=m, other=0.0)
        pr = tl.load(ibus + i * S + s, mask=m, other=0.0)
        pi = tl.load(ibus + plane + i * S + s, mask=m, other=0.0)
        d = (i == j).to(tl.float32)
        # Y_ij V_j
        yvr = g * cr - h * ci
        yvi = g * ci + h * cr
        # dS/dVa = 1j * V_i * conj(d * I_i - Y_ij V_j)
        zr = d * pr - yvr
        zi = d * pi - yvi
        dva_r = ar * zi - ai * zr
        dva_i = ar * zr + ai * zi
        # dS/dVm = V_i * conj(Y_ij V_j / |V_j|) + d * conj(I_i) * V_i / |V_i|
        inv_j = 1.0 / tl.sqrt(cr * cr + ci * ci)
        inv_i = 1.0 / tl.sqrt(ar * ar + ai * ai)
        ur = yvr * inv_j
        ui = yvi * inv_j
        dvm_r = ar * ur + ai * ui + d * (pr * ar + pi * ai) * inv_i
        dvm_i = ai * ur - ar * ui + d * (pr * ai - pi * ar) * inv_i
        e = k * S + s
        tl.store(jac + e, dva_r, mask=m)
        tl.store(jac + total + e, dva_i, mask=m)
        tl.store(jac + 2 * total + e, dvm_r, mask=m)
        tl.store(jac + 3 * total + e, dvm_i, mask=m)


def run(row: torch.Tensor, col: torch.Tensor, y: torch.Tensor, v: torch.Tensor,
        ibus: torch.Tensor) -> torch.Tensor:
    nnz = row.shape[0]
    _, nb, S = v.shape
    jac = torch.empty((4, nnz, S), device=v.device, dtype=v.dtype)
    grid = (min(_VECTOR_CORES, nnz),)
    _dsbus_dv[grid](row, col, y, v, ibus, jac, nnz, nb, S, BS=triton.next_power_of_2(S))
    return jac
