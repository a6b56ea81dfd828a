"""Scene voice mix: every voice's output, ramped by its block-rate amp envelope, level and pan, summed into a stereo bus."""
import torch
import triton
import triton.language as tl

BLOCK = 128
EG_BLOCK = 32


@triton.jit
def _mix_voice(voice_out, amp_eg, level, pan, bus, v, T, voice_stride, eg_stride,
               BLOCK: tl.constexpr, EG_BLOCK: tl.constexpr):
    t = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = t < T
    k = t // EG_BLOCK
    frac = (t % EG_BLOCK).to(tl.float32) * (1.0 / EG_BLOCK)
    theta = (tl.load(pan + v) + 1.0) * 0.7853981633974483
    g = tl.load(level + v)
    gain_l = g * tl.cos(theta)
    gain_r = g * tl.sin(theta)
    e0 = tl.load(amp_eg + v * eg_stride + k, mask=ok, other=0.0)
    e1 = tl.load(amp_eg + v * eg_stride + k + 1, mask=ok, other=0.0)
    s = tl.load(voice_out + v * voice_stride + t, mask=ok, other=0.0) * (e0 + (e1 - e0) * frac)
    left = tl.load(bus + t, mask=ok, other=0.0)
    right = tl.load(bus + T + t, mask=ok, other=0.0)
    tl.store(bus + t, left + s * gain_l, mask=ok)
    tl.store(bus + T + t, right + s * gain_r, mask=ok)


def run(voice_out: torch.Tensor, amp_eg: torch.Tensor, level: torch.Tensor, pan: torch.Tensor) -> torch.Tensor:
    V, T = voice_out.shape
    bus = torch.zeros(2, T, device=voice_out.device, dtype=voice_out.dtype)
    grid = (triton.cdiv(T, BLOCK),)
    # like the synth's voice loop: each active voice adds itself into the scene bus
    for v in range(V):
        _mix_voice[grid](voice_out, amp_eg, level, pan, bus, v, T, voice_out.stride(0), amp_eg.stride(0),
                         BLOCK=BLOCK, EG_BLOCK=EG_BLOCK, num_warps=4)
    return bus
