"""Inverted dropout in training mode: zero each element with probability p, scale the rest by 1/(1-p)."""
import torch

META = {
    "name": "dropout",
    "level": 1,
    "category": "dropout",
    "dtypes": ["float32", "float16", "bfloat16"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-6},
                  "float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"n": 8192, "p": 0.25},
        "ragged": {"n": 1_000_003, "p": 0.1},
        "large": {"n": 32 * 1024 * 1024, "p": 0.1},
    },
    "baseline_notes": "Flat elementwise kernel, BLOCK=1024, one tl.rand(seed, offset) per element "
                      "(Philox), keep where the draw >= p and scale by 1/(1-p); no autotune.",
    "deterministic": False,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [n] of standard normals, the drop probability p and an integer RNG seed."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["n"], generator=g)
    return x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])), s["p"], 1234 + seed


def reference(x: torch.Tensor, p: float, seed: int) -> torch.Tensor:
    """torch's own dropout: same distribution, different random stream (see check)."""
    return torch.nn.functional.dropout(x, p, training=True)


def check(inputs: tuple, output: torch.Tensor) -> str | None:
    """Kept elements equal x/(1-p); the dropped fraction is within 6 sigma of p."""
    x, p, _ = inputs
    tol = META["tolerance"][str(x.dtype).removeprefix("torch.")]
    out, xf = output.double(), x.double()
    if output.shape != x.shape or output.dtype != x.dtype:
        return f"output is {output.dtype}{list(output.shape)}, expected {x.dtype}{list(x.shape)}"
    kept = out != 0
    expected = xf[kept] / (1 - p)
    if not torch.allclose(out[kept], expected, atol=tol["atol"], rtol=tol["rtol"]):
        return "kept elements are not x / (1 - p)"
    dropped = 1 - kept.double().mean().item()
    sigma = (p * (1 - p) / x.numel()) ** 0.5
    if abs(dropped - p) > 6 * sigma:
        return f"dropped fraction {dropped:.4f} is not near p = {p}"
    return None


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["n"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * n * item, "flops": 2 * n}
