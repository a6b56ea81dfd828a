"""Temporal self-attention of an Open-Sora STDiT3 block: for every (batch, spatial token, head) the T
latent frames attend to each other (non-causal). q, k, v come straight from the qkv projection in
[B, T, S, H, Dh] layout (no rearrange to (B S) T C); the output is written in the same layout."""
import torch

META = {
    "name": "stdit_temporal_attention",
    "level": 2,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "T": 5, "S": 6, "H": 2, "Dh": 24},
        "ragged": {"B": 2, "T": 13, "S": 77, "H": 3, "Dh": 72},
        "large": {"B": 2, "T": 15, "S": 3600, "H": 16, "Dh": 72},
    },
    "baseline_notes": "FlashAttention-style forward on strided [B, T, S, H, Dh] tensors: one program per "
                      "(batch, spatial token, head) sequence and block of frames, BLOCK_M = BLOCK_N = "
                      "max(16, next_power_of_2(T)), head dim padded to next_power_of_2(Dh) with masks, online "
                      "softmax in fp32 with exp2; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v [B, T, S, H, Dh], standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["T"], s["S"], s["H"], s["Dh"])
    return tuple(torch.randn(shape, generator=g).to(device=device, dtype=dt) for _ in range(3))


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    qf, kf, vf = (x.float().permute(0, 2, 3, 1, 4) for x in (q, k, v))  # [B, S, H, T, Dh]
    p = torch.softmax(qf @ kf.transpose(-1, -2) * q.shape[-1] ** -0.5, dim=-1)
    return (p @ vf).permute(0, 3, 1, 2, 4).to(q.dtype).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    seqs = s["B"] * s["S"] * s["H"]
    T, Dh = s["T"], s["Dh"]
    return {"bytes": 4 * seqs * T * Dh * item, "flops": seqs * (4 * T * T * Dh + 5 * T * T)}
