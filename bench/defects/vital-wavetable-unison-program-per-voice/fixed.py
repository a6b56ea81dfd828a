"""Wavetable oscillator voices with unison and stereo spread: uint32 phases, mipmapped tables, frame morph."""
import math

import torch
import triton
import triton.language as tl

BLOCK_T = 256


@triton.jit
def _wavetable_voice(tables, phase0, inc, frame_pos, spread, amp, out, T, U,
                     FRAMES: tl.constexpr, SIZE: tl.constexpr, LEVELS: tl.constexpr,
                     SHIFT: tl.constexpr, BLOCK_T: tl.constexpr):
    v = tl.program_id(0)
    pos = tl.load(frame_pos + v)
    f0 = tl.floor(pos)
    wf = pos - f0
    f0 = f0.to(tl.int32)
    f1 = tl.minimum(f0 + 1, FRAMES - 1)
    gain = tl.load(amp + v)
    # one tile of the voice's buffer per program (phases are closed-form in n, tiles are independent)
    n = tl.program_id(1) * BLOCK_T + tl.arange(0, BLOCK_T)
    ok = n < T
    left = tl.zeros([BLOCK_T], dtype=tl.float32)
    right = tl.zeros([BLOCK_T], dtype=tl.float32)
    for u in range(U):
        dp_i = tl.load(inc + v * U + u)
        p0 = tl.load(phase0 + v * U + u).to(tl.uint32, bitcast=True)
        dp = dp_i.to(tl.uint32, bitcast=True)
        level = 0
        for lv in tl.static_range(LEVELS - 1):
            level += (dp_i > (1 << (SHIFT + lv))).to(tl.int32)
        ph = p0 + n.to(tl.uint32) * dp
        i0 = (ph >> SHIFT).to(tl.int32)
        i1 = (i0 + 1) & (SIZE - 1)
        fr = (ph & ((1 << SHIFT) - 1)).to(tl.float32) * (1.0 / (1 << SHIFT))
        row0 = tables + (level * FRAMES + f0) * SIZE
        row1 = tables + (level * FRAMES + f1) * SIZE
        a0 = tl.load(row0 + i0)
        a1 = tl.load(row0 + i1)
        b0 = tl.load(row1 + i0)
        b1 = tl.load(row1 + i1)
        a = a0 + (a1 - a0) * fr
        b = b0 + (b1 - b0) * fr
        s = a + (b - a) * wf
        left += s * tl.load(spread + 2 * u)
        right += s * tl.load(spread + 2 * u + 1)
    tl.store(out + (2 * v) * T + n, gain * left, mask=ok)
    tl.store(out + (2 * v + 1) * T + n, gain * right, mask=ok)


def run(tables, phase0, inc, frame_pos, spread, amp, n_samples):
    levels, frames, size = tables.shape
    V, U = phase0.shape
    out = torch.empty(V, 2, n_samples, device=tables.device, dtype=tables.dtype)
    grid = (V, triton.cdiv(n_samples, BLOCK_T))
    _wavetable_voice[grid](tables, phase0, inc, frame_pos, spread, amp, out, n_samples, U,
                           FRAMES=frames, SIZE=size, LEVELS=levels, SHIFT=32 - int(math.log2(size)),
                           BLOCK_T=BLOCK_T, num_warps=4)
    return out
