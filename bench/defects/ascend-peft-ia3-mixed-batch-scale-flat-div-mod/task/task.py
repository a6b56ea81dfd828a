"""(IA)^3 activation rescaling for a mixed-adapter batch (PEFT IA3 on the down_proj input, served S-LoRA style):
every token t of the flattened batch carries the index of its request's adapter, and its feed-forward
activations are multiplied channel-wise by that adapter's learned vector: out[t, c] = x[t, c] * ia3[ids[t], c].

x [T, C] bf16 (the SwiGLU output entering down_proj), ia3 [A, C] bf16 (one l_ff vector per loaded adapter),
ids [T] int32. Output [T, C] bf16.
"""
import torch

META = {
    "name": "ia3_mixed_batch_scale",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}, "float16": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"T": 24, "C": 352, "A": 4, "requests": 5},
        "ragged": {"T": 37, "C": 600, "A": 3, "requests": 6},
        "large": {"T": 8192, "C": 11008, "A": 16, "requests": 64},
    },
    "baseline_notes": "40 programs (one per vector core) striding over tokens: each reads its token's adapter id "
                      "once as a scalar and scales the row in 4096-channel chunks with contiguous loads of x and of "
                      "that adapter's ia3 row, fp32 multiply, one store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [T, C], ia3 [A, C] (vectors near 1), ids [T] int32: the batch's requests are contiguous runs of tokens."""
    s = META["sizes"][size]
    T, C, A, n_req = s["T"], s["C"], s["A"], s["requests"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(T, C, generator=g)
    ia3 = 1.0 + 0.3 * torch.randn(A, C, generator=g)
    cuts = torch.sort(torch.randperm(T - 1, generator=g)[: n_req - 1] + 1).values
    lengths = torch.diff(torch.cat([torch.tensor([0]), cuts, torch.tensor([T])]))
    req_adapter = torch.randint(0, A, (n_req,), generator=g)
    ids = torch.repeat_interleave(req_adapter, lengths).to(torch.int32)
    return x.to(device=device, dtype=dt), ia3.to(device=device, dtype=dt), ids.to(device)


def reference(x: torch.Tensor, ia3: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    return (x.float() * ia3.float()[ids.long()]).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": item * (2 * s["T"] * s["C"] + s["A"] * s["C"]) + 4 * s["T"],
            "flops": s["T"] * s["C"]}
