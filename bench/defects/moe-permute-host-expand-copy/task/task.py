"""MoE dispatch permutation (vLLM moe_permute / SGLang EP dispatch): copy each token's hidden row once per chosen
expert into the expert-sorted buffer, out[i] = hidden[src[i] // topk], where src is the expert-stable sort order
of the flattened [T * topk] expert choices."""
import torch

META = {
    "name": "moe_dispatch_permute",
    "level": 1,
    "category": "gather",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"T": 12, "H": 96, "E": 8, "topk": 3},
        "ragged": {"T": 13, "H": 100, "E": 7, "topk": 2},
        "large": {"T": 2048, "H": 7168, "E": 256, "topk": 8},
    },
    "baseline_notes": "grid (destination row, block of 1024 hidden): load src[i], read hidden row src[i] // topk "
                      "directly and store it to row i; no intermediate copies.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """hidden [T, H], the flat expanded order src [T * topk] int32 (stable argsort of topk_ids), and topk."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    hidden = torch.randn(s["T"], s["H"], generator=g).to(dt)
    topk_ids = torch.stack([torch.randperm(s["E"], generator=g)[: s["topk"]] for _ in range(s["T"])])
    src = torch.sort(topk_ids.flatten(), stable=True).indices.to(torch.int32)
    return hidden.to(device), src.to(device), s["topk"]


def reference(hidden: torch.Tensor, src: torch.Tensor, topk: int) -> torch.Tensor:
    return hidden[src.long() // topk].clone()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    rows = s["T"] * s["topk"]
    return {"bytes": 2 * s["T"] * s["H"] + 4 * rows + 2 * rows * s["H"], "flops": 0}
