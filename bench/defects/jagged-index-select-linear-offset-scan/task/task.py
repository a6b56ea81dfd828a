"""Jagged index select (fbgemm_gpu jagged_index_select / jagged_index_select_2d_forward): output segment j is a copy
of input segment indices[j]; output_offsets is the exclusive cumsum of the selected lengths (computed by the caller,
as FBGEMM's wrapper does with asynchronous_complete_cumsum) and num_out_rows = output_offsets[-1]."""
import torch

META = {
    "name": "jagged_index_select_2d",
    "level": 2,
    "category": "gather",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B_in": 9, "B_out": 13, "L": 6, "D": 16},
        "ragged": {"B_in": 21, "B_out": 37, "L": 11, "D": 24},
        "large": {"B_in": 4096, "B_out": 16384, "L": 64, "D": 128},
    },
    "baseline_notes": "Grid over blocks of 32 output rows: each row's segment is found by a vectorised upper-bound "
                      "binary search over output_offsets (ceil(log2(B_out + 1)) gathers), then the source row "
                      "input_offsets[indices[seg]] + (row - output_offsets[seg]) is copied as a [32, D] tile; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """values [N_in, D] (per-user history embeddings), input_offsets [B_in + 1] int32, indices [B_out] int32 (which
    deduplicated user each batch sample expands), output_offsets [B_out + 1] int32, num_out_rows. Lengths are
    uniform in [0, L], so some segments are empty."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lengths = torch.randint(0, s["L"] + 1, (s["B_in"],), generator=g)
    input_offsets = torch.cat([torch.zeros(1, dtype=torch.long), lengths.cumsum(0)])
    values = torch.randn(int(input_offsets[-1]), s["D"], generator=g)
    indices = torch.randint(0, s["B_in"], (s["B_out"],), generator=g)
    output_offsets = torch.cat([torch.zeros(1, dtype=torch.long), lengths[indices].cumsum(0)])
    return (values.to(dt).to(device), input_offsets.to(torch.int32).to(device), indices.to(torch.int32).to(device),
            output_offsets.to(torch.int32).to(device), int(output_offsets[-1]))


def reference(values, input_offsets, indices, output_offsets, num_out_rows):
    out_len = (output_offsets[1:] - output_offsets[:-1]).long()
    seg = torch.repeat_interleave(torch.arange(indices.numel(), device=values.device), out_len)
    within = torch.arange(num_out_rows, device=values.device) - output_offsets[seg].long()
    src = input_offsets[indices.long()[seg]].long() + within
    return values[src]


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    rows = s["B_out"] * s["L"] // 2
    return {"bytes": 2 * rows * s["D"] * 2 + 4 * (2 * s["B_out"] + s["B_in"] + 2), "flops": 0}
