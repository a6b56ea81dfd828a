"""FX-correlator X-engine: cross-multiply-accumulate of channelised complex voltages (xGPU / tensor-core correlator).

x holds ci8 samples after the corner turn, [channel, time, receiver, re/im] (a receiver is one
antenna polarisation). For every channel the visibility matrix is
    V[f, i, j] = sum_t x[f, t, i] * conj(x[f, t, j])
returned in full (both triangles) as fp32 [channel, receiver, receiver, re/im]. Samples lie in
[-127, 127], so every product and every partial sum is an exactly representable integer.
"""
import torch

META = {
    "name": "fx_correlator_xmac",
    "level": 3,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-6}},
    "sizes": {
        "small": {"F": 2, "T": 64, "R": 32},
        "ragged": {"F": 3, "T": 80, "R": 40},
        "large": {"F": 128, "T": 1024, "R": 512},
    },
    "baseline_notes": "Program per (channel, 64x64 receiver tile), K loop over 64 time samples: loads the "
                      "interleaved ci8 tile as [K, R, 2] and splits re/im, three int8 tl.dot accumulators "
                      "(re, +im, -im) in int32, joins re/im at the fp32 store; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ci8 voltages x [F, T, R, 2] int8 (requantised noise, std ~16 levels, clipped to +-127)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    v = torch.randn(s["F"], s["T"], s["R"], 2, generator=g) * 16.0
    v[:, :, ::7] *= 3.0  # a few loud receivers
    x = v.round().clamp(-127, 127).to(torch.int8)
    return (x.to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    xc = torch.complex(x[..., 0].double(), x[..., 1].double())     # [F, T, R]
    vis = torch.einsum("fti,ftj->fij", xc, xc.conj())
    return torch.view_as_real(vis).to(torch.float32).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    F, T, R = s["F"], s["T"], s["R"]
    return {"bytes": 2 * F * T * R + 8 * F * R * R, "flops": 8 * F * T * R * R}
