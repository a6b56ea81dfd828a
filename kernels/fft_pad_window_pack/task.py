"""Real-FFT preparation: window a real signal, zero-pad it to an FFT-friendly length, pack it as half-length complex.

Length L is the smallest even 2^a 3^b 5^c >= N (the sizes FFT libraries run fastest). The packed
signal z[j] = xw[2j] + i xw[2j+1] is what a length-L/2 complex FFT consumes when computing a
length-L real FFT (the even/odd split). Output is z as view_as_real: [B, L/2, 2] float32.
"""
import torch

META = {
    "name": "fft_pad_window_pack",
    "level": 2,
    "category": "fft",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-6}},
    "sizes": {
        "small": {"B": 4, "N": 997},
        "ragged": {"B": 3, "N": 1531},
        "large": {"B": 256, "N": 100_003},
    },
    "baseline_notes": "2-D grid (signal, block of 1024 complex outputs): each program loads the "
                      "even and odd samples and window taps with stride-2 masked loads (zero past "
                      "N), multiplies, and stores real and imaginary parts with stride-2 stores; "
                      "L is computed on the host. No autotune.",
    "deterministic": True,
}


def fft_size(n: int) -> int:
    """Smallest even 2^a 3^b 5^c that is >= n."""
    m = max(n, 2)
    while True:
        if m % 2 == 0:
            r = m
            for p in (2, 3, 5):
                while r % p == 0:
                    r //= p
            if r == 1:
                return m
        m += 1


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Signals x [B, N] and a periodic Hann window [N]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["B"], s["N"], generator=g)
    window = torch.hann_window(s["N"], periodic=True, dtype=torch.float64)
    return x.to(device=device, dtype=dt), window.to(device=device, dtype=dt)


def reference(x: torch.Tensor, window: torch.Tensor) -> torch.Tensor:
    B, N = x.shape
    padded = torch.nn.functional.pad(x * window, (0, fft_size(N) - N))
    return torch.view_as_real(torch.complex(padded[:, 0::2], padded[:, 1::2])).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    B, N = s["B"], s["N"]
    return {"bytes": (B * N + N + B * fft_size(N)) * item, "flops": B * N}
