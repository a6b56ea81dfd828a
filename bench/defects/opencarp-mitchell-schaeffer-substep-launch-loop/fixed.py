"""Mitchell-Schaeffer ionic sub-steps (openCARP MitchellSchaeffer): Rush-Larsen gate, forward-Euler Vm."""
import math

import torch
import triton
import triton.language as tl

BLOCK = 1024
V_MIN = -86.2
V_MAX = 40.0
V_GATE = 0.13
TAU_IN = 0.3
TAU_OUT = 6.0
TAU_OPEN = 120.0
TAU_CLOSE = 150.0


@triton.jit
def _ms_substeps(vm_in, h_in, istim, vm_out, h_out, n, n_sub, dt, v_min, v_span, inv_span,
                 inv_tau_in, inv_tau_out, v_gate, open_decay, close_decay, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    vm = tl.load(vm_in + offs, mask=ok, other=0.0)
    h = tl.load(h_in + offs, mask=ok, other=0.0)
    stim = tl.load(istim + offs, mask=ok, other=0.0)
    for _ in range(n_sub):  # ionic sub-steps of this PDE step
        u = (vm - v_min) * inv_span
        j_in = h * u * u * (1.0 - u) * inv_tau_in
        j_out = -u * inv_tau_out
        h = tl.where(u < v_gate, 1.0 - (1.0 - h) * open_decay, h * close_decay)
        vm = vm + dt * ((j_in + j_out) * v_span + stim)
    tl.store(vm_out + offs, vm, mask=ok)
    tl.store(h_out + offs, h, mask=ok)


def run(vm: torch.Tensor, h: torch.Tensor, istim: torch.Tensor, dt: float, n_sub: int) -> tuple:
    n = vm.numel()
    vm_out = torch.empty_like(vm)
    h_out = torch.empty_like(h)
    span = V_MAX - V_MIN
    open_decay, close_decay = math.exp(-dt / TAU_OPEN), math.exp(-dt / TAU_CLOSE)
    grid = (triton.cdiv(n, BLOCK),)
    _ms_substeps[grid](vm, h, istim, vm_out, h_out, n, n_sub, dt, V_MIN, span, 1.0 / span,
                       1.0 / TAU_IN, 1.0 / TAU_OUT, V_GATE, open_decay, close_decay,
                       BLOCK=BLOCK, num_warps=4)
    return vm_out, h_out
