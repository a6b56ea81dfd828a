"""Uniformly partitioned convolution reverb: frequency-domain multiply-accumulate (JUCE dsp::Convolution engine).

Each stream keeps a circular frequency-domain delay line of its last P input block spectra
(fdl[c, slot, k], newest at slot `head`); the impulse response is cut into P partitions whose
spectra are ir[p, k]. The output block spectrum is Y[c, k] = sum_p fdl[c, (head - p) mod P, k] * ir[p, k]
(complex). Complex values are stored as trailing (re, im) float32 pairs.
"""
import torch

META = {
    "name": "partitioned_conv_reverb_mac",
    "level": 2,
    "category": "audio",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"C": 3, "P": 5, "K": 33},
        "ragged": {"C": 5, "P": 7, "K": 41},
        "large": {"C": 128, "P": 256, "K": 513},
    },
    "baseline_notes": "One launch, grid (C, cdiv(K, BLOCK_K)); each program walks the partitions BLOCK_P at a "
                      "time as a [BLOCK_P, BLOCK_K] tile of delay-line rows (slots (head - p) mod P), complex "
                      "multiply with the IR partitions, sums over the partition axis in registers, one store.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """fdl [C, P, K, 2], ir [P, K, 2] (exponentially decaying tail), head (int, newest slot)."""
    s = META["sizes"][size]
    C, P, K = s["C"], s["P"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    fdl = torch.randn(C, P, K, 2, generator=g)
    decay = torch.exp(-3.0 * torch.arange(P, dtype=torch.float32) / P)
    ir = torch.randn(P, K, 2, generator=g) * decay[:, None, None]
    head = int(torch.randint(0, P, (1,), generator=g).item())
    return fdl.to(dt).to(device), ir.to(dt).to(device), head


def reference(fdl: torch.Tensor, ir: torch.Tensor, head: int) -> torch.Tensor:
    P = fdl.shape[1]
    x = torch.view_as_complex(fdl.double().contiguous())
    h = torch.view_as_complex(ir.double().contiguous())
    slots = (head - torch.arange(P, device=fdl.device)) % P
    y = (x[:, slots, :] * h[None]).sum(1)
    return torch.view_as_real(y).to(fdl.dtype).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    C, P, K = s["C"], s["P"], s["K"]
    return {"bytes": 8 * (C * P * K + P * K + C * K), "flops": 8 * C * P * K}
