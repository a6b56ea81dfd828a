"""Per-offset GEMM of the gather-GEMM-scatter sparse convolution (spconv 2.x SubMConv3d, kernel 3x3x3).

spconv's native algorithm (and torchsparse's gather-matmul-scatter dataflow) runs a sparse 3-D convolution
as three steps per kernel offset k of the KV = 27 offsets: gather the input rows named by the kernel map
(indice pairs) into a buffer, multiply the buffer by the offset's filter, and scatter-add the products into
the output rows. This task is the middle step for all offsets at once, one grouped GEMM over the pair
segments (what torchsparse's adaptive grouping does with padded bmm):
    partial[s_k : s_{k+1}] = gathered[s_k : s_{k+1}] @ W[:, k, :]^T        for k = 0 .. KV-1
The filter is kept in spconv 2.x's default KRSC layout, weight [Cout, KV, Cin] (Cin contiguous), the
layout a SubMConv3d trained with spconv's implicit-GEMM algorithms stores. seg = [s_0 = 0, ..., s_KV = P]
are the kernel map's pair counts cumulated (pairs grouped by offset; the centre offset holds every voxel).
fp16 features and filter, fp32 accumulation, fp16 out. The pair counts come from a voxelised synthetic
indoor scan (floor, walls, furniture boxes, 2 cm voxels), ~11 active neighbours per voxel as in ScanNet.
"""
import torch

META = {
    "name": "sparse_conv_offset_gemm",
    "level": 2,
    "category": "sparse_conv",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"extent": 6, "height": 3, "boxes": 1, "Cin": 16, "Cout": 16},
        "ragged": {"extent": 9, "height": 4, "boxes": 2, "Cin": 40, "Cout": 24},
        "large": {"extent": 230, "height": 60, "boxes": 14, "Cin": 64, "Cout": 64},
    },
    "baseline_notes": "20 programs (the A2's AI cores) walk the 27 offsets and, inside each, every 20th "
                      "32-row tile of that offset's pair segment; per tile the loop over Cin in chunks of 16 "
                      "feeds the fp16 [32, 16] input tile and the transposed [Cout, 16] KRSC filter tile to "
                      "tl.dot with an fp32 accumulator, one fp16 store per tile; no autotune.",
    "deterministic": True,
}
KERNEL_VOLUME = 27


def _scene_pair_counts(extent: int, height: int, boxes: int, g: torch.Generator) -> list[int]:
    """Kernel-map pair count per 3x3x3 offset of a voxelised room scan (floor, 4 walls, boxes)."""
    pts = []

    def plane(o, u, v):
        n = (int(u.norm() * 2.0) + 1) * (int(v.norm() * 2.0) + 1)
        a, b = torch.rand(n, 1, generator=g), torch.rand(n, 1, generator=g)
        pts.append(o + a * u + b * v)

    e, h, z = float(extent), float(height), torch.zeros(3)
    ex, ey, hz = torch.tensor([e, 0.0, 0.0]), torch.tensor([0.0, e, 0.0]), torch.tensor([0.0, 0.0, h])
    plane(z, ex, ey)
    for o, u in ((z, ex), (z, ey), (ex, ey), (ey, ex)):
        plane(o, u, hz)
    for _ in range(boxes):
        c = torch.rand(3, generator=g) * torch.tensor([0.8 * e, 0.8 * e, 0.0]) + torch.tensor([0.1 * e, 0.1 * e, 0.0])
        s = (torch.rand(3, generator=g) * 0.12 + 0.04) * torch.tensor([e, e, 1.5 * h])
        sx, sy, sz = torch.tensor([s[0], 0.0, 0.0]), torch.tensor([0.0, s[1], 0.0]), torch.tensor([0.0, 0.0, s[2]])
        plane(c + sz, sx, sy)
        for o, u in ((c, sx), (c, sy), (c + sx, sy), (c + sy, sx)):
            plane(o, u, sz)
    p = torch.cat(pts)
    vox = torch.floor(p + 0.5 + 0.25 * torch.randn(p.shape, generator=g)).long() + 2
    key = torch.unique((vox[:, 0] * 4096 + vox[:, 1]) * 4096 + vox[:, 2])
    counts = []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dz in (-1, 0, 1):
                counts.append(int(torch.isin(key + (dx * 4096 + dy) * 4096 + dz, key).sum()))
    return counts


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """gathered [P, Cin], seg [KV + 1] int32 (pair offsets per kernel offset), weight [Cout, KV, Cin] (KRSC)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    counts = _scene_pair_counts(s["extent"], s["height"], s["boxes"], g)
    seg = torch.zeros(KERNEL_VOLUME + 1, dtype=torch.int64)
    seg[1:] = torch.cumsum(torch.tensor(counts), 0)
    P = int(seg[-1])
    gathered = torch.randn(P, s["Cin"], generator=g)
    weight = torch.randn(s["Cout"], KERNEL_VOLUME, s["Cin"], generator=g) / s["Cin"] ** 0.5
    return (gathered.to(dt).to(device), seg.to(torch.int32).to(device), weight.to(dt).to(device))


def reference(gathered: torch.Tensor, seg: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    bounds = seg.tolist()
    out = torch.empty(gathered.shape[0], weight.shape[0], dtype=torch.float32, device=gathered.device)
    for k in range(weight.shape[1]):
        a, b = bounds[k], bounds[k + 1]
        out[a:b] = gathered[a:b].float() @ weight[:, k, :].float().t()
    return out.to(gathered.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(0)
    P = sum(_scene_pair_counts(s["extent"], s["height"], s["boxes"], g))
    return {"bytes": 2 * P * (s["Cin"] + s["Cout"]) + 2 * KERNEL_VOLUME * s["Cin"] * s["Cout"],
            "flops": 2 * P * s["Cin"] * s["Cout"]}
