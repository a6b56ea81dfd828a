"""verl get_response_mask: mask the rollout response after its first EOS token.

mask[i, t] = 1 while no EOS id (any of eos_ids, torch.isin) occurs in response_id[i, :t], so the
first EOS itself is kept and everything after it (the pad tokens) is 0; a response without an EOS
(truncated at max_response_length) keeps every token. verl writes it as
(eos.cumsum(1) - eos).eq(0) in the attention-mask dtype (int64).
"""
import torch

IM_END = 151645      # Qwen2.5 <|im_end|>
END_OF_TEXT = 151643  # Qwen2.5 <|endoftext|>, also the pad token

META = {
    "name": "verl_response_mask",
    "level": 2,
    "category": "scan",
    "dtypes": ["int64"],
    "tolerance": {"int64": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 4, "T": 2600},
        "ragged": {"N": 5, "T": 3001},
        "large": {"N": 2048, "T": 20480},
    },
    "baseline_notes": "One program per response walking it in 1024-token tiles: EOS test against each id, "
                      "tl.cumsum inside the tile plus the running EOS count carried from the earlier tiles, "
                      "int64 mask store; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """response_id [N, T] int64 (EOS then pad after each finished response), eos_ids [2] int64."""
    s = META["sizes"][size]
    N, T = s["N"], s["T"]
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, END_OF_TEXT, (N, T), generator=g)
    end = torch.randint(0, T, (N, 1), generator=g)
    finished = torch.rand(N, 1, generator=g) >= 0.15
    finished[0] = True
    pos = torch.arange(T)[None, :]
    ids = torch.where(finished & (pos == end), torch.full_like(ids, IM_END), ids)
    ids = torch.where(finished & (pos > end), torch.full_like(ids, END_OF_TEXT), ids)
    eos_ids = torch.tensor([IM_END, END_OF_TEXT], dtype=torch.int64)
    return ids.to(device), eos_ids.to(device)


def reference(response_id: torch.Tensor, eos_ids: torch.Tensor) -> torch.Tensor:
    eos = torch.isin(response_id, eos_ids).int()
    return (eos.cumsum(dim=1) - eos).eq(0).to(torch.int64)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 16 * s["N"] * s["T"], "flops": 4 * s["N"] * s["T"]}
