"""DeepSpeed 1-bit Adam worker-side compression with error feedback (HcclBackend.compressed_allreduce on NPU).

deepspeed/runtime/comm/hccl.py, before the all-to-all of the signs: the momentum buffer gets the
worker's error feedback added (buffer_m += worker_error), the worker scale is
||buffer_m||_2 / sqrt(numel), the new error is buffer_m - scale * sign(buffer_m) (sign 0 counted as +1),
and the signs are bit-packed by torch_npu.npu_sign_bits_pack(buffer_m, world_size): 1 for x >= 0,
8 values per byte, little-endian bit order, reshaped to [world_size, numel / (8 * world_size)].
Returns (new worker_error, packed signs uint8 [W, n / (8 W)], worker_scale [1]).
"""
import torch

META = {
    "name": "onebit_adam_worker_compress",
    "level": 2,
    "category": "optimizer",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-7, "rtol": 1e-5}},
    "sizes": {
        "small": {"n": 3072, "world": 4},
        "ragged": {"n": 100_544, "world": 8},
        "large": {"n": 335_544_320, "world": 8},
    },
    "baseline_notes": "Two launches of 40 programs (one per AIV core) looping over 2048-element tiles: the "
                      "first keeps a vector sum of (m + e)^2 per program and stores one partial each; the "
                      "second sums the 40 partials for the scale, then writes the new error and packs the "
                      "signs of each tile viewed as [256, 8] with a weighted row sum; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """buffer_m [n] (the momentum, already padded to a multiple of 8 * world), worker_error [n], world."""
    s = META["sizes"][size]
    n, world = s["n"], s["world"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    buffer_m = 1e-3 * torch.randn(n, generator=g)
    buffer_m[-(n // 64):] = 0.0  # the zero padding at the end of the flat buffer
    worker_error = 2e-4 * torch.randn(n, generator=g)
    worker_error[-(n // 64):] = 0.0
    return buffer_m.to(dt).to(device), worker_error.to(dt).to(device), world


def reference(buffer_m: torch.Tensor, worker_error: torch.Tensor, world: int):
    x = buffer_m + worker_error
    scale = (x.double().square().sum().sqrt() / x.numel() ** 0.5).float()
    positive = x >= 0
    new_error = x - scale * torch.where(positive, 1.0, -1.0).to(x.dtype)
    weights = 2 ** torch.arange(8, device=x.device)
    packed = (positive.view(-1, 8).long() * weights).sum(1).to(torch.uint8).view(world, -1)
    return new_error, packed, scale.reshape(1)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["n"]
    return {"bytes": 12 * n + n // 8 + 4, "flops": 6 * n}
