"""DeepSeek MLA weight absorption (vLLM MLA _q_proj_and_k_up_proj): ql_nope[t, h] = q_nope[t, h] @ W_UK[h], [T, H, 128] x [H, 128, 512]."""
import torch

META = {
    "name": "mla_q_absorb",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"T": 3, "H": 2, "D": 128, "L": 512},
        "ragged": {"T": 37, "H": 3, "D": 128, "L": 512},
        "large": {"T": 4096, "H": 128, "D": 128, "L": 512},
    },
    "baseline_notes": "Grid (64-token block, head, 128-column block of L): tl.dot of the [64, 128] q tile (token "
                      "stride H * 128) with the head's [128, 128] W_UK tile, fp32 accumulate, bf16 store; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q_nope [T, H, D] of normals, W_UK [H, D, L] scaled by 1/sqrt(D)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q = torch.randn(s["T"], s["H"], s["D"], generator=g).to(dt)
    w = (torch.randn(s["H"], s["D"], s["L"], generator=g) / s["D"] ** 0.5).to(dt)
    return q.to(device), w.to(device)


def reference(q: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return torch.einsum("thd,hdl->thl", q.float(), w.float()).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": item * (s["T"] * s["H"] * (s["D"] + s["L"]) + s["H"] * s["D"] * s["L"]),
            "flops": 2 * s["T"] * s["H"] * s["D"] * s["L"]}
