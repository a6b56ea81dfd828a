"""Blockwise 8-bit quantisation with a dynamic code (bitsandbytes quantize_blockwise): per block of `blocksize` values, absmax = max |x|, then every x / absmax is stored as the index of the nearest of 256 sorted code values."""
import torch

META = {
    "name": "quantize_blockwise_dynamic8",
    "level": 2,
    "category": "quantization",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"M": 5, "K": 300, "blocksize": 256},
        "ragged": {"M": 37, "K": 1001, "blocksize": 1024},
        "large": {"M": 11008, "K": 4096, "blocksize": 4096},
    },
    "baseline_notes": "One program per quantisation block: the block's absmax, then x * (1 / absmax) looked up with an "
                      "8-step branchless binary search over the sorted 256-entry code (gathers from the 1 KB table) "
                      "and one comparison of the two bracketing codes; uint8 indices; 4 warps.",
    "deterministic": False,
}


def dynamic_code(signed: bool = True, max_exponent_bits: int = 7, total_bits: int = 8) -> torch.Tensor:
    """The 256 values of bitsandbytes' dynamic map (create_dynamic_map), sorted: for each decade 10^-6 .. 10^0 the
    midpoints of an evenly split [0.1, 1] interval, both signs, plus 0 and 1."""
    values = [0.0, 1.0]
    data_bits = total_bits - 1 if signed else total_bits
    for i in range(max_exponent_bits):
        items = 2 ** (i + data_bits - max_exponent_bits) + 1 if signed else 2 ** (i + data_bits - max_exponent_bits + 1) + 1
        edges = torch.linspace(0.1, 1.0, items, dtype=torch.float64)
        mids = ((edges[:-1] + edges[1:]) / 2 * 10.0 ** (i - (max_exponent_bits - 1))).tolist()
        values += mids + ([-m for m in mids] if signed else [])
    values += [0.0] * (2 ** total_bits - len(values))
    return torch.tensor(sorted(values), dtype=torch.float32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A [M, K] (an fp32 weight / optimizer-state tensor), code [256] fp32 sorted, blocksize."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    a = torch.randn(s["M"], s["K"], generator=g) * 0.02
    a = a * torch.exp(torch.randn(s["M"], 1, generator=g))      # rows of different scale
    return a.to(getattr(torch, dtype or META["dtypes"][0])).to(device), dynamic_code().to(device), s["blocksize"]


def _normalised(a: torch.Tensor, blocksize: int) -> tuple:
    flat = a.reshape(-1)
    n = flat.numel()
    nblocks = (n + blocksize - 1) // blocksize
    padded = torch.zeros(nblocks * blocksize, dtype=a.dtype, device=a.device)
    padded[:n] = flat
    absmax = padded.view(nblocks, blocksize).abs().amax(dim=1)
    xn = (padded.view(nblocks, blocksize) * (1.0 / absmax)[:, None]).reshape(-1)[:n]
    return xn, absmax


def _brackets(xn: torch.Tensor, code: torch.Tensor) -> tuple:
    """The codes just below and above each value, and the nearest of the two (ties to the lower index)."""
    hi = torch.searchsorted(code, xn, right=True).clamp(1, code.numel() - 1)
    lo = hi - 1
    nearest = torch.where((xn - code[lo]).abs() <= (xn - code[hi]).abs(), lo, hi)
    return lo, hi, nearest


def reference(a: torch.Tensor, code: torch.Tensor, blocksize: int) -> tuple:
    xn, absmax = _normalised(a, blocksize)
    _, _, nearest = _brackets(xn, code)
    return nearest.to(torch.uint8).view(a.shape), absmax


def check(inputs: tuple, output: tuple) -> str | None:
    """absmax exactly; each index the nearest code, or the other code of its bracket when x / absmax lies within
    1e-6 of their midpoint (a last-bit difference in the scaled value may decide such a tie either way)."""
    a, code, blocksize = inputs
    q, absmax = output
    ref_q, ref_absmax = reference(a, code, blocksize)
    if q.shape != ref_q.shape or q.dtype != torch.uint8 or absmax.shape != ref_absmax.shape:
        return f"outputs {q.dtype}{list(q.shape)}, {absmax.dtype}{list(absmax.shape)} do not match the reference's shapes"
    if not torch.equal(absmax, ref_absmax):
        return "absmax differs from the per-block max |x|."
    differ = (q != ref_q).reshape(-1)
    if not bool(differ.any()):
        return None
    xn, _ = _normalised(a, blocksize)
    lo, hi, _ = _brackets(xn, code)
    got = q.reshape(-1).long()
    in_bracket = (got == lo) | (got == hi)
    near_tie = ((xn - code[lo]).abs() - (xn - code[hi]).abs()).abs() <= 1e-6
    bad = differ & ~(in_bracket & near_tie)
    if bool(bad.any()):
        return f"{int(bad.sum())} of {q.numel()} indices are not the nearest code."
    return None


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["K"]
    return {"bytes": 4 * n + n + 4 * (n // s["blocksize"] + 1), "flops": 12 * n}
