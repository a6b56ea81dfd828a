"""NEST aeif_psc_exp: one 0.1 ms step of an AdEx population, 10 RK4 sub-steps per neuron in registers."""
import torch
import triton
import triton.language as tl

BLOCK = 256

# NEST aeif_psc_exp defaults (pF, nS, mV, ms, pA)
C_M, G_L, E_L, DELTA_T, V_TH, V_PEAK, V_RESET = 281.0, 30.0, -70.6, 2.0, -50.4, 0.0, -60.0
A, B, TAU_W, TAU_EX, TAU_IN, I_E = 4.0, 80.5, 144.0, 0.2, 2.0, 0.0
H, N_SUB = 0.01, 10


@triton.jit
def _aeif_rhs(V, w, i_ex, i_in, i_stim, g_l, e_l, inv_c, v_th, delta_t, inv_delta_t, v_peak,
              a, inv_tau_w, inv_tau_ex, inv_tau_in, i_e):
    v = tl.minimum(V, v_peak)
    i_spike = g_l * delta_t * tl.exp((v - v_th) * inv_delta_t)
    dv = (-g_l * (v - e_l) + i_spike + i_ex - i_in - w + i_e + i_stim) * inv_c
    dw = (a * (v - e_l) - w) * inv_tau_w
    return dv, dw, -i_ex * inv_tau_ex, -i_in * inv_tau_in


@triton.jit
def _aeif_psc_exp_update(v_ptr, w_ptr, iex_ptr, iin_ptr, spk_ex_ptr, spk_in_ptr, stim_ptr,
                         v_out, w_out, iex_out, iin_out, nspk_out, n, h,
                         g_l, e_l, inv_c, v_th, delta_t, inv_delta_t, v_peak, v_reset, a, b,
                         inv_tau_w, inv_tau_ex, inv_tau_in, i_e,
                         N_SUB: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    V = tl.load(v_ptr + offs, mask=mask, other=0.0)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0)
    i_ex = tl.load(iex_ptr + offs, mask=mask, other=0.0)
    i_in = tl.load(iin_ptr + offs, mask=mask, other=0.0)
    i_stim = tl.load(stim_ptr + offs, mask=mask, other=0.0)
    half_h = 0.5 * h
    sixth_h = h / 6.0
    n_spikes = tl.zeros([BLOCK], dtype=tl.int32)
    for _ in range(N_SUB):
        k1v, k1w, k1e, k1i = _aeif_rhs(V, w, i_ex, i_in, i_stim, g_l, e_l, inv_c, v_th, delta_t,
                                       inv_delta_t, v_peak, a, inv_tau_w, inv_tau_ex, inv_tau_in, i_e)
        k2v, k2w, k2e, k2i = _aeif_rhs(V + half_h * k1v, w + half_h * k1w, i_ex + half_h * k1e,
                                       i_in + half_h * k1i, i_stim, g_l, e_l, inv_c, v_th, delta_t,
                                       inv_delta_t, v_peak, a, inv_tau_w, inv_tau_ex, inv_tau_in, i_e)
        k3v, k3w, k3e, k3i = _aeif_rhs(V + half_h * k2v, w + half_h * k2w, i_ex + half_h * k2e,
                                       i_in + half_h * k2i, i_stim, g_l, e_l, inv_c, v_th, delta_t,
                                       inv_delta_t, v_peak, a, inv_tau_w, inv_tau_ex, inv_tau_in, i_e)
        k4v, k4w, k4e, k4i = _aeif_rhs(V + h * k3v, w + h * k3w, i_ex + h * k3e, i_in + h * k3i,
                                       i_stim, g_l, e_l, inv_c, v_th, delta_t, inv_delta_t, v_peak,
                                       a, inv_tau_w, inv_tau_ex, inv_tau_in, i_e)
        V = V + sixth_h * (k1v + 2.0 * k2v + 2.0 * k3v + k4v)
        w = w + sixth_h * (k1w + 2.0 * k2w + 2.0 * k3w + k4w)
        i_ex = i_ex + sixth_h * (k1e + 2.0 * k2e + 2.0 * k3e + k4e)
        i_in = i_in + sixth_h * (k1i + 2.0 * k2i + 2.0 * k3i + k4i)
        spiked = V >= v_peak
        V = tl.where(spiked, v_reset, V)
        w = tl.where(spiked, w + b, w)
        n_spikes += spiked.to(tl.int32)
    i_ex += tl.load(spk_ex_ptr + offs, mask=mask, other=0.0)
    i_in += tl.load(spk_in_ptr + offs, mask=mask, other=0.0)
    tl.store(v_out + offs, V, mask=mask)
    tl.store(w_out + offs, w, mask=mask)
    tl.store(iex_out + offs, i_ex, mask=mask)
    tl.store(iin_out + offs, i_in, mask=mask)
    tl.store(nspk_out + offs, n_spikes, mask=mask)


def run(V, w, I_ex, I_in, spk_ex, spk_in, I_stim) -> tuple:
    n = V.shape[0]
    v_out = torch.empty_like(V)
    w_out = torch.empty_like(w)
    iex_out = torch.empty_like(I_ex)
    iin_out = torch.empty_like(I_in)
    nspk = torch.empty(n, device=V.device, dtype=torch.int32)
    grid = (triton.cdiv(n, BLOCK),)
    _aeif_psc_exp_update[grid](V, w, I_ex, I_in, spk_ex, spk_in, I_stim,
                               v_out, w_out, iex_out, iin_out, nspk, n, H,
                               G_L, E_L, 1.0 / C_M, V_TH, DELTA_T, 1.0 / DELTA_T, V_PEAK, V_RESET, A, B,
                               1.0 / TAU_W, 1.0 / TAU_EX, 1.0 / TAU_IN, I_E,
                               N_SUB=N_SUB, BLOCK=BLOCK, num_warps=4)
    return v_out, w_out, iex_out, iin_out, nspk
