"""Diffusion-forcing sampler step (SkyReels-V2 DF): classifier-free guidance combine, then a flow-matching Euler step
with a separate noise level for every latent frame.

latents [B, C, F, H, W] float32; the transformer's conditional and unconditional velocity predictions in bfloat16;
sigma[f] -> sigma_next[f] per frame (earlier frames are further along; finished frames keep sigma_next == sigma).
    v = v_uncond + guidance * (v_cond - v_uncond);  x_new[:, :, f] = x[:, :, f] + (sigma_next[f] - sigma[f]) * v
"""
import torch

META = {
    "name": "df_cfg_flow_euler_step",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 1, "C": 16, "F": 3, "H": 6, "W": 10},
        "ragged": {"B": 1, "C": 16, "F": 5, "H": 7, "W": 11},
        "large": {"B": 1, "C": 16, "F": 31, "H": 90, "W": 160},
    },
    "baseline_notes": "One launch over a (block of 1,024 pixels, frame, batch*channel) grid: each program reads its "
                      "frame's two sigmas, loads latents and both velocity predictions, applies guidance and the Euler "
                      "step in fp32 and stores the new latents; 4 warps.",
    "deterministic": True,
}

GUIDANCE = 6.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """latents, v_cond, v_uncond, sigma [F], sigma_next [F], guidance scale."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["C"], s["F"], s["H"], s["W"])
    latents = torch.randn(shape, generator=g)
    v_cond = torch.randn(shape, generator=g).to(torch.bfloat16)
    v_uncond = (v_cond.float() + 0.3 * torch.randn(shape, generator=g)).to(torch.bfloat16)
    f = s["F"]
    # pyramid schedule: frame f is `f * 0.08` behind the first one; the leading frames are already clean
    progress = (torch.arange(f, dtype=torch.float64) * 0.08 + 0.3 * torch.rand(1, generator=g, dtype=torch.float64))
    sigma = progress.clamp(0.0, 1.0)
    sigma_next = (sigma - 0.04).clamp(min=0.0)
    return (latents.to(dt).to(device), v_cond.to(device), v_uncond.to(device),
            sigma.to(torch.float32).to(device), sigma_next.to(torch.float32).to(device), GUIDANCE)


def reference(latents, v_cond, v_uncond, sigma, sigma_next, guidance):
    v = v_uncond.double() + guidance * (v_cond.double() - v_uncond.double())
    dt = (sigma_next.double() - sigma.double()).view(1, 1, -1, 1, 1)
    return (latents.double() + dt * v).to(latents.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    numel = s["B"] * s["C"] * s["F"] * s["H"] * s["W"]
    return {"bytes": numel * (4 + 2 + 2 + 4) + 8 * s["F"], "flops": 5 * numel}
