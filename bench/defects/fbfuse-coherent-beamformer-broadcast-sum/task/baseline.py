"""FBFUSE coherent beamformer: complex weights x antenna voltages, detected, summed over pols and TSCRUNCH samples."""
import torch
import triton
import triton.language as tl

BLOCK_B = 64
BLOCK_T = 64


@triton.jit
def _beamform_power(v_re, v_im, w_re, w_im, power, T, B, A, n_out,
                    P: tl.constexpr, TSCRUNCH: tl.constexpr,
                    BLOCK_B: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_A: tl.constexpr):
    beams = tl.program_id(0) * BLOCK_B + tl.arange(0, BLOCK_B)
    times = tl.program_id(1) * BLOCK_T + tl.arange(0, BLOCK_T)
    chan = tl.program_id(2)
    ants = tl.arange(0, BLOCK_A)
    b_ok = beams < B
    t_ok = times < T
    a_ok = ants < A
    # steering weights of this channel's beam block, [BLOCK_B, BLOCK_A]
    w_offs = chan * B * A + beams[:, None] * A + ants[None, :]
    w_mask = b_ok[:, None] & a_ok[None, :]
    wr = tl.load(w_re + w_offs, mask=w_mask, other=0.0)
    wi = tl.load(w_im + w_offs, mask=w_mask, other=0.0)
    pw = tl.zeros([BLOCK_B, BLOCK_T], dtype=tl.float32)
    for p in tl.static_range(P):
        # voltages of this polarisation, antennas down, samples across: [BLOCK_A, BLOCK_T]
        v_offs = chan * T * P * A + times[None, :] * (P * A) + p * A + ants[:, None]
        v_mask = a_ok[:, None] & t_ok[None, :]
        xr = tl.load(v_re + v_offs, mask=v_mask, other=0.0)
        xi = tl.load(v_im + v_offs, mask=v_mask, other=0.0)
        re = tl.dot(wr, xr) - tl.dot(wi, xi)
        im = tl.dot(wr, xi) + tl.dot(wi, xr)
        pw += re * re + im * im
    # integrate TSCRUNCH consecutive samples
    pw = tl.sum(tl.reshape(pw, [BLOCK_B, BLOCK_T // TSCRUNCH, TSCRUNCH]), axis=2)
    outs = tl.program_id(1) * (BLOCK_T // TSCRUNCH) + tl.arange(0, BLOCK_T // TSCRUNCH)
    o_offs = chan * B * n_out + beams[:, None] * n_out + outs[None, :]
    tl.store(power + o_offs, pw, mask=b_ok[:, None] & (outs[None, :] < n_out))


def run(v_re, v_im, w_re, w_im, tscrunch: int) -> torch.Tensor:
    n_chan, n_time, n_pol, n_ant = v_re.shape
    n_beam = w_re.shape[1]
    assert n_ant <= 128 and BLOCK_T % tscrunch == 0
    n_out = triton.cdiv(n_time, tscrunch)
    power = torch.empty(n_chan, n_beam, n_out, device=v_re.device, dtype=torch.float32)
    grid = (triton.cdiv(n_beam, BLOCK_B), triton.cdiv(n_time, BLOCK_T), n_chan)
    _beamform_power[grid](v_re, v_im, w_re, w_im, power, n_time, n_beam, n_ant, n_out,
                          P=n_pol, TSCRUNCH=tscrunch, BLOCK_B=BLOCK_B, BLOCK_T=BLOCK_T,
                          BLOCK_A=max(16, triton.next_power_of_2(n_ant)), num_warps=4)
    return power
