"""Block-wise (128 x 128) absmax weight quantisation, the DeepSeek-V3 FP8 block-scaling recipe, to int8.

(DeepSeek-V3 inference/kernel.py block scales, weight_dequant's inverse; Atlas A2 has no FP8, so the
block recipe targets int8.) For every 128 x 128 block b of the weight W [N, K] (edge blocks partial):
    scale[b] = max(absmax(W[b]), 1e-5) * (1/127)            (fp32, [cdiv(N,128), cdiv(K,128)])
    q[b]     = clamp(floor(W[b] / scale[b] + 0.5), -127, 127)   (int8)
The scale is a multiply by the fp32 constant 1/127 and W / scale an IEEE division, as in the int8
row-wise task, so a correct kernel matches bit for bit.
"""
import torch

BLOCK = 128

META = {
    "name": "block_weight_quant_int8",
    "level": 2,
    "category": "fused",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 1e-6}},
    "sizes": {
        "small": {"N": 256, "K": 384},
        "ragged": {"N": 200, "K": 330},
        "large": {"N": 18432, "K": 7168},
    },
    "baseline_notes": "Persistent grid of min(blocks, 40) programs striding over the 128 x 128 blocks in "
                      "row-major block order: one [128, 128] tile load per block, absmax, scale, divide, "
                      "floor(+0.5), clamp, int8 store and one fp32 scale store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A linear weight W [N, K] (out, in) with a few larger rows and columns, as trained weights have."""
    s = META["sizes"][size]
    N, K = s["N"], s["K"]
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(N, K, generator=g) * 0.02
    w[:: max(1, N // 6)] *= 8.0
    w[:, :: max(1, K // 10)] *= 4.0
    return (w.to(dtype=getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    N, K = w.shape
    nb, kb = -(-N // BLOCK), -(-K // BLOCK)
    wp = torch.zeros(nb * BLOCK, kb * BLOCK, dtype=torch.float32, device=w.device)
    wp[:N, :K] = w.float()
    amax = wp.view(nb, BLOCK, kb, BLOCK).abs().amax(dim=(1, 3))
    scale = amax.clamp(min=1e-5) * (1.0 / 127.0)
    full = scale.repeat_interleave(BLOCK, 0).repeat_interleave(BLOCK, 1)
    q = torch.floor(wp / full + 0.5).clamp(-127, 127)[:N, :K].to(torch.int8)
    return q, scale


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    blocks = -(-s["N"] // BLOCK) * -(-s["K"] // BLOCK)
    return {"bytes": s["N"] * s["K"] * (item + 1) + 4 * blocks, "flops": 5 * s["N"] * s["K"]}
