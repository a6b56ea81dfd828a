"""Block-wise fp8 weight dequantization (DeepSeek-V3 weight_dequant, as used by serving stacks to
materialise a bf16 weight from an fp8 checkpoint): W = x * s[i // 128, j // 128], x fp8 e4m3 [M, N],
s fp32 [ceil(M/128), ceil(N/128)] (the checkpoint's weight_scale_inv). Output bf16 [M, N]."""
import torch

META = {
    "name": "fp8_block_weight_dequant",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 256, "N": 384, "BS": 128},
        "ragged": {"M": 300, "N": 200, "BS": 128},
        "large": {"M": 18432, "N": 7168, "BS": 128},
    },
    "baseline_notes": "2-D grid of 128 x 128 tiles, one program per scale block: one scalar scale load, "
                      "then a contiguous fp8 load, multiply and bf16 store of the tile.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x fp8 e4m3 [M, N], s fp32 [ceil(M/BS), ceil(N/BS)], block size BS."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    M, N, BS = s["M"], s["N"], s["BS"]
    x = (torch.randn(M, N, generator=g) * 100.0).clamp(-448.0, 448.0).to(torch.float8_e4m3fn)
    sc = torch.rand((M + BS - 1) // BS, (N + BS - 1) // BS, generator=g) * 1e-4 + 1e-5
    return x.to(device), sc.to(device), BS


def reference(x: torch.Tensor, s: torch.Tensor, block_size: int) -> torch.Tensor:
    M, N = x.shape
    full = s.repeat_interleave(block_size, dim=0)[:M].repeat_interleave(block_size, dim=1)[:, :N]
    return (x.double() * full.double()).to(torch.bfloat16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    M, N, BS = s["M"], s["N"], s["BS"]
    return {"bytes": M * N * (1 + 2) + 4 * ((M + BS - 1) // BS) * ((N + BS - 1) // BS), "flops": M * N}
