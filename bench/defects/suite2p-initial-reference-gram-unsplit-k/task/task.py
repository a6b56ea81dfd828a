"""Suite2p registration: frame-by-frame correlation matrix of pick_initial_reference.

Before rigid registration Suite2p builds its first reference image from `nimg_init` = 300 frames
sampled evenly through the recording (suite2p.registration.register.pick_initial_reference):
    X   = frames.reshape(nimg, Ly * Lx).astype(float32)
    X  -= X.mean(axis=1, keepdims=True)          # remove each frame's mean
    cc  = X @ X.T                                # [nimg, nimg]
    cc /= outer(sqrt(diag(cc)), sqrt(diag(cc)))  # Pearson correlation of every frame pair
then averages the 20 frames most correlated with the best-connected frame. This task is the
correlation matrix: frames int16 [nimg, Ly, Lx] (the raw binary's dtype) -> cc fp32 [nimg, nimg].
"""
import torch

META = {
    "name": "initial_reference_frame_correlation",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"nimg": 10, "Ly": 16, "Lx": 16},
        "ragged": {"nimg": 13, "Ly": 20, "Lx": 19},
        "large": {"nimg": 300, "Ly": 512, "Lx": 512},
    },
    "baseline_notes": "Three launches: per-frame mean (one program per frame); the centred Gram matrix in "
                      "64 x 64 output tiles with BLOCK_K = 64, int16 tiles converted and centred in registers "
                      "and multiplied with tl.dot (tf32), the 262,144-long K axis split over ~22 programs per "
                      "tile (~550 programs) writing fp32 partials; a row kernel sums the partials and divides "
                      "by sqrt(diag) outer sqrt(diag). 4 warps, default stages, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """frames int16 [nimg, Ly, Lx]: one field of view, jittered by the animal's motion, with shot noise."""
    s = META["sizes"][size]
    n, Ly, Lx = s["nimg"], s["Ly"], s["Lx"]
    g = torch.Generator().manual_seed(seed)
    pad = 8
    H, W = Ly + 2 * pad, Lx + 2 * pad
    yy = torch.arange(H, dtype=torch.float32)[:, None]
    xx = torch.arange(W, dtype=torch.float32)[None, :]
    base = 300.0 + 90.0 * torch.cos(yy / 23.0) * torch.sin(xx / 31.0)
    n_cells = max(4, H * W // 400)
    cy = torch.rand(n_cells, generator=g) * H
    cx = torch.rand(n_cells, generator=g) * W
    for k in range(n_cells):  # somata as bright blobs
        y0, y1 = max(0, int(cy[k]) - 8), min(H, int(cy[k]) + 9)
        x0, x1 = max(0, int(cx[k]) - 8), min(W, int(cx[k]) + 9)
        d2 = (yy[y0:y1] - cy[k]) ** 2 + (xx[:, x0:x1] - cx[k]) ** 2
        base[y0:y1, x0:x1] += 400.0 * torch.exp(-d2 / 18.0)
    dy = torch.randint(-pad, pad + 1, (n,), generator=g)
    dx = torch.randint(-pad, pad + 1, (n,), generator=g)
    gain = 1.0 + 0.1 * torch.randn(n, generator=g)
    frames = torch.empty(n, Ly, Lx)
    for i in range(n):
        frames[i] = base[pad + dy[i]:pad + dy[i] + Ly, pad + dx[i]:pad + dx[i] + Lx] * gain[i]
    frames += 25.0 * torch.randn(n, Ly, Lx, generator=g)
    return (frames.round().clamp(-32768, 32767).to(torch.int16).to(device),)


def reference(frames: torch.Tensor) -> torch.Tensor:
    n = frames.shape[0]
    x = frames.reshape(n, -1).double()
    x = x - x.mean(dim=1, keepdim=True)
    cc = x @ x.T
    d = cc.diagonal().sqrt()
    return (cc / (d[:, None] * d[None, :])).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    K = s["Ly"] * s["Lx"]
    return {"bytes": 2 * s["nimg"] * K + 4 * s["nimg"] ** 2, "flops": 2 * s["nimg"] ** 2 * K}
