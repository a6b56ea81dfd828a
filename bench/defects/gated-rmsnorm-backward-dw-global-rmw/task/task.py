"""Backward of the gated RMSNorm of Mamba-2 (norm_before_gate=False): y = rmsnorm(x * silu(z)) * w; given dy, returns dx, dz (input dtype) and dw (fp32)."""
import torch

META = {
    "name": "gated_rmsnorm_backward",
    "level": 2,
    "category": "norm",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 5e-2, "rtol": 3e-2}, "float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 24, "N": 192},
        "ragged": {"M": 1001, "N": 3000},
        "large": {"M": 16384, "N": 8192},
    },
    "baseline_notes": "Programs of 8 rows, the whole row in one block (BLOCK_N = next_power_of_2(N), BLOCK_N // 512 warps up to 16): row "
                      "sums, dx and dz per row, the dw partial kept in registers across the program's rows and stored "
                      "once to a [programs, N] fp32 buffer that a second kernel sums over programs.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N] (SSM output), z [M, N] (gate), w [N] fp32, dy [M, N], eps."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["M"], s["N"], generator=g)
    z = torch.randn(s["M"], s["N"], generator=g)
    w = 1.0 + 0.1 * torch.randn(s["N"], generator=g)
    dy = torch.randn(s["M"], s["N"], generator=g) / s["M"] ** 0.5
    return x.to(dt).to(device), z.to(dt).to(device), w.to(device), dy.to(dt).to(device), 1e-5


def reference(x: torch.Tensor, z: torch.Tensor, w: torch.Tensor, dy: torch.Tensor, eps: float) -> tuple:
    xf = x.float().requires_grad_()
    zf = z.float().requires_grad_()
    wf = w.float().requires_grad_()
    with torch.enable_grad():
        gate = xf * torch.nn.functional.silu(zf)
        y = gate * torch.rsqrt(gate.pow(2).mean(-1, keepdim=True) + eps) * wf
        dx, dz, dw = torch.autograd.grad(y, (xf, zf, wf), dy.float())
    return dx.to(x.dtype), dz.to(z.dtype), dw


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 5 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 8 * s["N"], "flops": 20 * n}
