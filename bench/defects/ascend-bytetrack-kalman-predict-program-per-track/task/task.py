"""ByteTrack KalmanFilter.multi_predict: constant-velocity predict of every track's box state.

State (x, y, a, h, vx, vy, va, vh); F = [[I, I], [0, I]] (one frame), process noise
Q = diag(std^2) with std = (h/20, h/20, 1e-2, h/20, h/160, h/160, 1e-5, h/160) from the current height.
mean' = F mean, cov' = F cov F^T + Q.
"""
import torch

META = {
    "name": "bytetrack_kalman_multi_predict",
    "level": 2,
    "category": "fused",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 37},
        "ragged": {"N": 203},
        "large": {"N": 32768},
    },
    "baseline_notes": "Persistent grid of min(40, tiles) programs looping over 32-track tiles: the means as one "
                      "[32, 8] block, the covariances as one contiguous [32, 8, 8] block plus the row-, column- and "
                      "corner-shifted blocks (masked loads at +32, +4, +36) that F cov F^T adds; Q on the diagonal; "
                      "no autotune.",
    "deterministic": True,
}

W_POS = 1.0 / 20
W_VEL = 1.0 / 160


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """mean [N, 8] and covariance [N, 8, 8] (symmetric positive definite) of N tracks in a 1920x1080 frame."""
    N = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    mean = torch.empty(N, 8)
    mean[:, 0] = torch.rand(N, generator=g) * 1920
    mean[:, 1] = torch.rand(N, generator=g) * 1080
    mean[:, 2] = 0.3 + 0.4 * torch.rand(N, generator=g)
    mean[:, 3] = 40 + 260 * torch.rand(N, generator=g)
    mean[:, 4:] = torch.randn(N, 4, generator=g) * torch.tensor([4.0, 2.0, 1e-3, 0.5])
    h = mean[:, 3:4]
    scale = torch.cat([h / 20, h / 20, torch.full_like(h, 1e-2), h / 20,
                       h / 160, h / 160, torch.full_like(h, 1e-5), h / 160], dim=1)
    a = torch.randn(N, 8, 8, generator=g) * 0.3 + torch.eye(8)
    cov = scale[:, :, None] * (a @ a.transpose(1, 2)) * scale[:, None, :]
    return mean.to(dt).to(device), cov.to(dt).to(device)


def reference(mean: torch.Tensor, cov: torch.Tensor) -> tuple:
    m = mean.double()
    P = cov.double()
    F = torch.eye(8, dtype=torch.float64, device=mean.device)
    F[:4, 4:] = torch.eye(4, dtype=torch.float64, device=mean.device)
    h = m[:, 3]
    std = torch.stack([W_POS * h, W_POS * h, torch.full_like(h, 1e-2), W_POS * h,
                       W_VEL * h, W_VEL * h, torch.full_like(h, 1e-5), W_VEL * h], dim=1)
    new_mean = m @ F.T
    new_cov = F @ P @ F.T + torch.diag_embed(std * std)
    return new_mean.to(mean.dtype), new_cov.to(cov.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    N = META["sizes"][size]["N"]
    return {"bytes": 2 * 4 * (8 * N + 64 * N), "flops": 4 * 64 * N + 8 * N}
