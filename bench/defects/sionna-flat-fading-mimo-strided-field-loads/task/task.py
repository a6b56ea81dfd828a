"""Flat-fading MIMO channel with AWGN (NVIDIA Sionna ApplyFlatFadingChannel / FlatFadingChannel).

For every channel use b of a batch, the receive vector is
    y[b] = H[b] x[b] + sqrt(N0) * n[b]
with H[b] in C^{M x K} (num_rx_ant x num_tx_ant), x[b] in C^K, and n[b] ~ CN(0, I_M) supplied as an input
(Sionna draws it inside AWGN; here it is given so the result is deterministic), N0 the noise power per
complex dimension. Complex tensors are stored as Sionna/torch complex64, i.e. interleaved fp32 (re, im):
x [B, K, 2], h [B, M, K, 2], n [B, M, 2] -> y [B, M, 2]. Shapes follow Sionna's example
GenerateFlatFadingChannel(num_tx_ant=4, num_rx_ant=16).
"""
import torch

META = {
    "name": "flat_fading_mimo_channel",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 200, "M": 16, "K": 4},
        "ragged": {"B": 77, "M": 16, "K": 4},
        "large": {"B": 524288, "M": 16, "K": 4},
    },
    "baseline_notes": "Programs of 32 channel uses load each operand's records as contiguous tiles "
                      "(h as [32, M, K, 2], x as [32, K, 2], n as [32, M, 2]), separate real and imaginary "
                      "parts on chip with tl.split, form H x as a broadcast multiply reduced over the K "
                      "axis, add sqrt(N0) n and store y as one [32, M, 2] tile (tl.join); 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, K, 2] (unit-energy 16-QAM symbols), h [B, M, K, 2] (Rayleigh, CN(0, 1) entries),
    n [B, M, 2] (CN(0, 1)), no (float, N0 for Eb/N0 = 10 dB at 4 bits per symbol)."""
    s = META["sizes"][size]
    B, M, K = s["B"], s["M"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    levels = torch.tensor([-3.0, -1.0, 1.0, 3.0]) / (10.0 ** 0.5)
    x = levels[torch.randint(0, 4, (B, K, 2), generator=g)]
    h = torch.randn(B, M, K, 2, generator=g) * (0.5 ** 0.5)
    n = torch.randn(B, M, 2, generator=g) * (0.5 ** 0.5)
    no = 1.0 / (4 * 10.0 ** (10.0 / 10.0))
    return x.to(dt).to(device), h.to(dt).to(device), n.to(dt).to(device), no


def reference(x: torch.Tensor, h: torch.Tensor, n: torch.Tensor, no: float) -> torch.Tensor:
    xc = torch.view_as_complex(x.double().contiguous())
    hc = torch.view_as_complex(h.double().contiguous())
    nc = torch.view_as_complex(n.double().contiguous())
    y = torch.einsum("bmk,bk->bm", hc, xc) + (no ** 0.5) * nc
    return torch.view_as_real(y).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, M, K = s["B"], s["M"], s["K"]
    return {"bytes": 8 * B * (M * K + K + 2 * M), "flops": 8 * B * M * K + 4 * B * M}
