"""Megatron-LM reset_attention_mask: the causal mask of packed pre-training rows, cut at every EOD token.

Megatron's get_ltor_masks_and_position_ids starts from a lower-triangular mask per row and, for every
EOD position e of the row, clears mask[b, 0, e + 1:, :e + 1] so that a token never attends across a
document boundary; the result is returned as "masked" (True where attention is not allowed). Here
it is uint8 [B, 1, S, S] with 1 = masked, the atten_mask convention of torch_npu.npu_fusion_attention.
"""
import torch

META = {
    "name": "eod_reset_attention_mask",
    "level": 2,
    "category": "mask",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 2, "S": 48, "LMIN": 4, "LMAX": 16},
        "ragged": {"B": 3, "S": 77, "LMIN": 3, "LMAX": 20},
        "large": {"B": 4, "S": 4096, "LMIN": 32, "LMAX": 480},
    },
    "baseline_notes": "Grid = the 40 vector cores, each walking [32, 512] tiles of the [B, S, S] mask: document index "
                      "of the tile's rows and columns counted from the row's EOD list, masked = future column or "
                      "other document, one uint8 store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """eod_index [B, S] int32: sorted EOD positions of each packed row, padded with S; n_eod [B] int32."""
    s = META["sizes"][size]
    B, S = s["B"], s["S"]
    g = torch.Generator().manual_seed(seed)
    eod_index = torch.full((B, S), S, dtype=torch.int32)
    n_eod = torch.zeros(B, dtype=torch.int32)
    for b in range(B):
        pos, k = -1, 0
        while True:
            pos += int(torch.randint(s["LMIN"], s["LMAX"] + 1, (1,), generator=g))
            if pos >= S:
                break
            eod_index[b, k] = pos
            k += 1
        n_eod[b] = k
    return eod_index.to(device), n_eod.to(device)


def reference(eod_index: torch.Tensor, n_eod: torch.Tensor) -> torch.Tensor:
    B, S = eod_index.shape
    keep = torch.tril(torch.ones((B, S, S), device=eod_index.device)).view(B, 1, S, S)
    for b in range(B):
        for i in eod_index[b, : int(n_eod[b])].tolist():
            keep[b, 0, (i + 1):, :(i + 1)] = 0
    return (keep < 0.5).to(torch.uint8)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["B"] * s["S"] * s["S"] + 4 * s["B"] * (s["S"] + 1), "flops": 0}
