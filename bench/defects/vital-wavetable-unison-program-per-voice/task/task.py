"""Polyphonic wavetable oscillator with unison and stereo spread (Vital's wavetable SynthOscillator).

Every voice v plays U detuned unison copies of a morphing wavetable. The tables are mipmapped: level l
holds the same FRAMES frames band-limited to SIZE / 2^(l+1) harmonics, and each unison voice reads the
lowest level whose harmonics stay below Nyquist for its pitch. Phases are 32-bit unsigned fixed point
(2^32 = one cycle) advanced by a per-(voice, unison) increment, as Vital's poly_int phase accumulators:

    ph      = phase0[v, u] + n * inc[v, u]                    (mod 2^32, n = 0 .. T-1)
    i0      = ph >> S,  i1 = (i0 + 1) mod SIZE,  fr = (ph mod 2^S) / 2^S        (S = 32 - log2 SIZE)
    level   = #{ l in 0 .. LEVELS-2 : inc[v, u] > 2^(S + l) }  (= ceil(log2(inc * SIZE / 2^32)), clamped)
    f0      = floor(frame_pos[v]), f1 = min(f0 + 1, FRAMES - 1), wf = frame_pos[v] - f0
    s       = lerp(lerp(tab[level, f0, i0], tab[level, f0, i1], fr), lerp(tab[level, f1, i0], tab[level, f1, i1], fr), wf)
    out[v, c, n] = amp[v] * sum_u spread[u, c] * s            (c = 0 left, 1 right)

Inputs: tables [LEVELS, FRAMES, SIZE] fp32, phase0 [V, U] int32 and inc [V, U] int32 (the uint32 bit
patterns; inc < 2^31), frame_pos [V] fp32, spread [U, 2] fp32 (constant-power pan gains of the unison
voices), amp [V] fp32, n_samples T (int). Returns out [V, 2, T] fp32.
"""
import math

import torch

META = {
    "name": "wavetable_unison_oscillator",
    "level": 2,
    "category": "audio-synthesis",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"V": 3, "U": 3, "T": 200, "FRAMES": 8, "SIZE": 256, "LEVELS": 4},
        "ragged": {"V": 5, "U": 7, "T": 333, "FRAMES": 5, "SIZE": 256, "LEVELS": 4},
        "large": {"V": 32, "U": 16, "T": 16384, "FRAMES": 256, "SIZE": 2048, "LEVELS": 8},
    },
    "baseline_notes": "Grid (voice, 256-sample tile); each program loops over the voice's unison copies: uint32 "
                      "phase per sample, mip level from the increment, four table gathers (two frames x two "
                      "neighbouring samples), bilinear interpolation, left/right sums in registers, one store per "
                      "channel. 4 warps, no autotune.",
    "deterministic": True,
}
SAMPLE_RATE = 48000.0


def _tables(frames: int, size: int, levels: int) -> torch.Tensor:
    """Saw -> square morph: harmonic k has amplitude (1 - m)/k + m * [k odd] * 1.2/k, m = frame / (frames-1);
    level l keeps harmonics 1 .. size / 2^(l+1) - 1 (sine series, built with an inverse real FFT)."""
    k = torch.arange(size // 2 + 1, dtype=torch.float64)
    m = torch.linspace(0.0, 1.0, frames, dtype=torch.float64)[:, None]
    amp = torch.where(k > 0, ((1.0 - m) + m * 1.2 * (k % 2)) / k.clamp(min=1), torch.zeros(()))
    out = []
    for level in range(levels):
        keep = (k >= 1) & (k < (size // 2) >> level)
        spec = torch.complex(torch.zeros_like(amp), -amp * keep * (size / 2))
        out.append(torch.fft.irfft(spec, n=size))
    tab = torch.stack(out)                                     # [levels, frames, size]
    return tab / tab[0].abs().amax(dim=-1)[None, :, None]       # each frame peaks at 1 on level 0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    V, U, T = s["V"], s["U"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    tables = _tables(s["FRAMES"], s["SIZE"], s["LEVELS"])
    notes = torch.randint(24, 97, (V, 1), generator=g).double()
    detune = 0.5 * torch.linspace(-1.0, 1.0, U, dtype=torch.float64)[None, :] if U > 1 else torch.zeros(1, 1)
    freq = 440.0 * torch.pow(2.0, (notes + detune - 69.0) / 12.0)          # [V, U] Hz
    inc = torch.round(freq / SAMPLE_RATE * 2.0 ** 32).long()
    phase0 = torch.randint(0, 2 ** 32, (V, U), generator=g)
    to_i32 = lambda a: (a - (a >= 2 ** 31).long() * 2 ** 32).to(torch.int32)
    frame_pos = torch.rand(V, generator=g, dtype=torch.float64) * (s["FRAMES"] - 1)
    pan = torch.linspace(-0.8, 0.8, U, dtype=torch.float64) if U > 1 else torch.zeros(1, dtype=torch.float64)
    theta = (pan + 1.0) * (math.pi / 4.0)
    spread = torch.stack([torch.cos(theta), torch.sin(theta)], dim=1)        # [U, 2]
    amp = (0.3 + 0.7 * torch.rand(V, generator=g, dtype=torch.float64)) / math.sqrt(U)
    return (tables.to(dt).to(device), to_i32(phase0).to(device), to_i32(inc).to(device),
            frame_pos.to(dt).to(device), spread.to(dt).to(device), amp.to(dt).to(device), T)


def reference(tables, phase0, inc, frame_pos, spread, amp, n_samples):
    levels, frames, size = tables.shape
    shift = 32 - int(math.log2(size))
    tab = tables.double()
    p0 = phase0.long() & 0xFFFFFFFF
    dp = inc.long() & 0xFFFFFFFF
    n = torch.arange(n_samples, device=tables.device)
    level = torch.zeros_like(dp)
    for lv in range(levels - 1):
        level += (dp > 2 ** (shift + lv)).long()
    f0 = torch.floor(frame_pos.double()).long()
    f1 = (f0 + 1).clamp(max=frames - 1)
    wf = frame_pos.double() - f0.double()
    out = torch.empty(phase0.shape[0], 2, n_samples, dtype=torch.float64, device=tables.device)
    for v in range(phase0.shape[0]):
        ph = (p0[v, :, None] + n[None, :] * dp[v, :, None]) & 0xFFFFFFFF    # [U, T]
        i0 = ph >> shift
        i1 = (i0 + 1) % size
        fr = (ph & ((1 << shift) - 1)).double() / float(1 << shift)
        rows0 = tab[level[v], f0[v]][:, None, :].expand(-1, n_samples, -1)  # [U, T, size]
        rows1 = tab[level[v], f1[v]][:, None, :].expand(-1, n_samples, -1)
        pick = lambda rows, i: torch.gather(rows, 2, i[:, :, None])[:, :, 0]
        a = pick(rows0, i0) + (pick(rows0, i1) - pick(rows0, i0)) * fr
        b = pick(rows1, i0) + (pick(rows1, i1) - pick(rows1, i0)) * fr
        sig = a + (b - a) * wf[v]                                             # [U, T]
        out[v] = amp.double()[v] * (spread.double().t() @ sig)
    return out.to(tables.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    evals = s["V"] * s["U"] * s["T"]
    # output written once; each (voice, unison) reads two frame rows of its mip level
    return {"bytes": 8 * s["V"] * s["T"] + 8 * s["SIZE"] * s["V"] * s["U"], "flops": 14 * evals}
