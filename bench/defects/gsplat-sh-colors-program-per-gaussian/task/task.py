"""View-dependent colour of 3-D Gaussians from degree-3 spherical harmonics (gsplat spherical_harmonics / 3DGS eval_sh).

Each Gaussian's viewing direction is normalize(mean - camera position); its colour is the 16 real
SH basis functions of that direction dotted with its [16, 3] coefficients, plus 0.5, clamped at 0
(gsplat rasterization: colors = clamp_min(sh + 0.5, 0)).
"""
import torch

META = {
    "name": "gsplat_sh_colors",
    "level": 2,
    "category": "rendering",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 37},
        "ragged": {"N": 77},
        "large": {"N": 2_000_000},
    },
    "baseline_notes": "Programs of 64 Gaussians: a [64, 16, 4] coefficient tile (channel padded to 4, masked), "
                      "the SH basis built as a [64, 16] tile, product summed over the basis axis; 4 warps, "
                      "no autotune.",
    "deterministic": True,
}

C0 = 0.28209479177387814
C1 = 0.4886025119029199
C2 = (1.0925484305920792, -1.0925484305920792, 0.31539156525252005, -1.0925484305920792, 0.5462742152960396)
C3 = (-0.5900435899266435, 2.890611442640554, -0.4570457994644658, 0.3731763325901154,
      -0.4570457994644658, 1.445305721320277, -0.5900435899266435)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """means [N, 3], camera position [3], sh_coeffs [N, 16, 3] (DC term larger, higher bands small)."""
    N = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    means = torch.randn(N, 3, generator=g) * 4.0
    campos = torch.tensor([0.3, -0.2, -9.0])
    band = torch.tensor([1.0] + [0.3] * 3 + [0.15] * 5 + [0.08] * 7)
    coeffs = torch.randn(N, 16, 3, generator=g) * band[None, :, None]
    return means.to(dt).to(device), campos.to(dt).to(device), coeffs.to(dt).to(device)


def sh_basis(d: torch.Tensor) -> torch.Tensor:
    x, y, z = d.unbind(-1)
    xx, yy, zz = x * x, y * y, z * z
    return torch.stack([
        torch.full_like(x, C0),
        -C1 * y, C1 * z, -C1 * x,
        C2[0] * x * y, C2[1] * y * z, C2[2] * (2 * zz - xx - yy), C2[3] * x * z, C2[4] * (xx - yy),
        C3[0] * y * (3 * xx - yy), C3[1] * x * y * z, C3[2] * y * (4 * zz - xx - yy),
        C3[3] * z * (2 * zz - 3 * xx - 3 * yy), C3[4] * x * (4 * zz - xx - yy), C3[5] * z * (xx - yy),
        C3[6] * x * (xx - 3 * yy),
    ], dim=-1)


def reference(means: torch.Tensor, campos: torch.Tensor, coeffs: torch.Tensor) -> torch.Tensor:
    d = means.double() - campos.double()
    d = d / d.norm(dim=-1, keepdim=True)
    sh = torch.einsum("nk,nkc->nc", sh_basis(d), coeffs.double())
    return torch.clamp_min(sh + 0.5, 0.0).to(coeffs.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    N = META["sizes"][size]["N"]
    return {"bytes": 4 * N * (3 + 48 + 3) + 12, "flops": N * (16 * 3 * 2 + 40)}
