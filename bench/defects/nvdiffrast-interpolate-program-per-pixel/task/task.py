"""Barycentric attribute interpolation after rasterization (nvdiffrast dr.interpolate, forward, range mode).

The rasterizer's output rast [N, H, W, 4] holds, per pixel, (u, v, z/w, triangle_id) where triangle_id is
the index of the covering triangle plus one, stored as a float (0 = background). For a covered pixel with
triangle t = triangle_id - 1 and vertices (i0, i1, i2) = tri[t], the interpolated attributes are
    out[n, y, x, :] = u * attr[i0, :] + v * attr[i1, :] + (1 - u - v) * attr[i2, :]
with attr [V, A] shared by every image of the minibatch (nvdiffrast broadcasts a 2-D attribute tensor);
background pixels get 0. Returns out [N, H, W, A] fp32 (the pixel differentials are not requested).
"""
import math

import torch

META = {
    "name": "rast_interpolate",
    "level": 2,
    "category": "rendering",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 1, "H": 8, "W": 12, "G": 5, "A": 5},
        "ragged": {"N": 2, "H": 13, "W": 17, "G": 7, "A": 3},
        "large": {"N": 4, "H": 1024, "W": 1024, "G": 317, "A": 8},
    },
    "baseline_notes": "1-D grid over blocks of 128 pixels (flattened N*H*W); each program loads u, v and the "
                      "triangle id of its pixels, gathers the three vertex indices and a [128, A_pow2] tile "
                      "of each vertex's attributes, blends them and stores the [128, A] rows; background "
                      "pixels are masked out of the gathers. Default 4 warps, no autotune.",
    "deterministic": True,
}


def _grid_mesh(g: int) -> torch.Tensor:
    """Triangles of a g x g vertex grid: quad q = (j, i) gives triangles 2q (v00, v10, v11) and 2q+1 (v00, v11, v01)."""
    j, i = torch.meshgrid(torch.arange(g - 1), torch.arange(g - 1), indexing="ij")
    v00 = j * g + i
    v10, v01, v11 = v00 + 1, v00 + g, v00 + g + 1
    lower = torch.stack([v00, v10, v11], -1)
    upper = torch.stack([v00, v11, v01], -1)
    return torch.stack([lower, upper], 2).reshape(-1, 3).to(torch.int32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rast [N, H, W, 4] (u, v, z/w, triangle_id + 1), tri [T, 3] int32, attr [V, A].

    The mesh is a G x G vertex grid (a displaced height-field scan: 2 (G-1)^2 triangles) seen from N
    views; each view maps the frame onto the mesh's parameter square with its own rotation and zoom,
    so neighbouring pixels share triangles as in a real raster and ~40% of the frame is background.
    """
    s = META["sizes"][size]
    n, h, w, g, a = s["N"], s["H"], s["W"], s["G"], s["A"]
    gen = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    tri = _grid_mesh(g)
    attr = torch.randn(g * g, a, generator=gen)
    ys = (torch.arange(h, dtype=torch.float64) + 0.5) / h - 0.5
    xs = (torch.arange(w, dtype=torch.float64) + 0.5) / w - 0.5
    py, px = torch.meshgrid(ys, xs, indexing="ij")
    views = []
    for _ in range(n):
        ang = float(torch.rand(1, generator=gen)) * 2.0 * math.pi
        zoom = 0.7 + 0.2 * float(torch.rand(1, generator=gen))
        ca, sa = math.cos(ang), math.sin(ang)
        sx = ((ca * px - sa * py) / zoom + 0.5) * (g - 1)
        sy = ((sa * px + ca * py) / zoom + 0.5) * (g - 1)
        inside = (sx >= 0) & (sx < g - 1) & (sy >= 0) & (sy < g - 1)
        qi, qj = sx.floor().clamp(0, g - 2), sy.floor().clamp(0, g - 2)
        fs, ft = sx - qi, sy - qj
        lower = fs >= ft
        quad = (qj * (g - 1) + qi).long()
        tid = 2 * quad + (~lower).long()
        u = torch.where(lower, 1.0 - fs, 1.0 - ft)
        v = torch.where(lower, fs - ft, fs)
        z = 0.45 + 0.1 * torch.sin(3.0 * sx / g) * torch.cos(2.0 * sy / g)
        r = torch.stack([u, v, z, (tid + 1).double()], -1)
        views.append(torch.where(inside[..., None], r, torch.zeros_like(r)))
    rast = torch.stack(views).to(dt)
    return rast.to(device), tri.to(device), attr.to(dt).to(device)


def reference(rast: torch.Tensor, tri: torch.Tensor, attr: torch.Tensor) -> torch.Tensor:
    n, h, w, _ = rast.shape
    r = rast.reshape(-1, 4)
    out = torch.empty(r.shape[0], attr.shape[1], dtype=rast.dtype, device=rast.device)
    a64 = attr.double()
    for start in range(0, r.shape[0], 1 << 20):
        rr = r[start:start + (1 << 20)].double()
        tid = rr[:, 3].long()
        hit = tid > 0
        idx = tri.long()[(tid - 1).clamp(min=0)]
        u, v = rr[:, 0:1], rr[:, 1:2]
        val = u * a64[idx[:, 0]] + v * a64[idx[:, 1]] + (1.0 - u - v) * a64[idx[:, 2]]
        out[start:start + (1 << 20)] = torch.where(hit[:, None], val, torch.zeros_like(val)).to(rast.dtype)
    return out.reshape(n, h, w, attr.shape[1])


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pix = s["N"] * s["H"] * s["W"]
    return {"bytes": pix * (16 + 4 * s["A"]) + 4 * s["G"] ** 2 * s["A"] + 24 * (s["G"] - 1) ** 2,
            "flops": 5 * pix * s["A"]}
