"""Scene voice mix: every voice's output, ramped by its block-rate amp envelope, level and pan, summed into a stereo bus."""
import torch
import triton
import triton.language as tl

BLOCK = 128
EG_BLOCK = 32


@triton.jit
def _mix_scene(voice_out, amp_eg, level, pan, bus, V, T, voice_stride, eg_stride,
               BLOCK: tl.constexpr, EG_BLOCK: tl.constexpr):
    t = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = t < T
    k = t // EG_BLOCK
    frac = (t % EG_BLOCK).to(tl.float32) * (1.0 / EG_BLOCK)
    left = tl.zeros([BLOCK], dtype=tl.float32)
    right = tl.zeros([BLOCK], dtype=tl.float32)
    # the synth's voice loop, inside one launch: the bus tile stays in registers
    for v in range(V):
        theta = (tl.load(pan + v) + 1.0) * 0.7853981633974483
        g = tl.load(level + v)
        gain_l = g * tl.cos(theta)
        gain_r = g * tl.sin(theta)
        e0 = tl.load(amp_eg + v * eg_stride + k, mask=ok, other=0.0)
        e1 = tl.load(amp_eg + v * eg_stride + k + 1, mask=ok, other=0.0)
        s = tl.load(voice_out + v * voice_stride + t, mask=ok, other=0.0) * (e0 + (e1 - e0) * frac)
        left += s * gain_l
        right += s * gain_r
    tl.store(bus + t, left, mask=ok)
    tl.store(bus + T + t, right, mask=ok)


def run(voice_out: torch.Tensor, amp_eg: torch.Tensor, level: torch.Tensor, pan: torch.Tensor) -> torch.Tensor:
    V, T = voice_out.shape
    bus = torch.empty(2, T, device=voice_out.device, dtype=voice_out.dtype)
    grid = (triton.cdiv(T, BLOCK),)
    _mix_scene[grid](voice_out, amp_eg, level, pan, bus, V, T, voice_out.stride(0), amp_eg.stride(0),
                     BLOCK=BLOCK, EG_BLOCK=EG_BLOCK, num_warps=4)
    return bus
