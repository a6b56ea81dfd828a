"""Order-book features per snapshot from LOBSTER-format limit-order-book rows (DeepLOB input pipeline).

Each row holds LEVELS levels of (ask price, ask size, bid price, bid size), level 1 first, as in
LOBSTER's orderbook files (40 columns for 10 levels). Per snapshot the task computes
  mid        = (ask_1 + bid_1) / 2
  microprice = (bid_1 * ask_size_1 + ask_1 * bid_size_1) / (ask_size_1 + bid_size_1)
  imbalance  = sum_l w_l (bid_size_l - ask_size_l) / sum_l w_l (bid_size_l + ask_size_l),  w_l = DECAY ** (l - 1)
and returns them as a [3, T] fp32 tensor (one contiguous row per feature).
"""
import torch

LEVELS = 10
DECAY = 0.6

META = {
    "name": "lob_imbalance_microprice",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"T": 300},
        "ragged": {"T": 1237},
        "large": {"T": 4194304},
    },
    "baseline_notes": "40 programs (one per AIV core) loop over 128-snapshot tiles; each tile is read as one "
                      "contiguous [128, 64] block (40 valid columns), split into price/size and ask/bid planes "
                      "on chip, level weights exp((l-1) log DECAY), row sums along the level axis.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """book [T, 4 * LEVELS]: ask_px, ask_sz, bid_px, bid_sz per level, prices in dollars, sizes in shares."""
    T = META["sizes"][size]["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    mid = 100.0 + torch.cumsum(torch.randn(T, generator=g) * 0.01, 0)
    half_spread = 0.005 + 0.01 * torch.randint(0, 3, (T,), generator=g).float()
    lvl = torch.arange(LEVELS).float()
    ask_px = mid[:, None] + half_spread[:, None] + 0.01 * lvl[None, :]
    bid_px = mid[:, None] - half_spread[:, None] - 0.01 * lvl[None, :]
    ask_sz = torch.randint(1, 50, (T, LEVELS), generator=g).float() * 100.0
    bid_sz = torch.randint(1, 50, (T, LEVELS), generator=g).float() * 100.0
    book = torch.stack([ask_px, ask_sz, bid_px, bid_sz], dim=2).reshape(T, 4 * LEVELS)
    return (book.to(dt).to(device),)


def reference(book: torch.Tensor) -> torch.Tensor:
    b = book.double().reshape(book.shape[0], LEVELS, 4)
    ask_px, ask_sz, bid_px, bid_sz = b.unbind(2)
    w = DECAY ** torch.arange(LEVELS, dtype=torch.float64, device=book.device)
    mid = 0.5 * (ask_px[:, 0] + bid_px[:, 0])
    micro = (bid_px[:, 0] * ask_sz[:, 0] + ask_px[:, 0] * bid_sz[:, 0]) / (ask_sz[:, 0] + bid_sz[:, 0])
    imb = ((bid_sz - ask_sz) * w).sum(1) / ((bid_sz + ask_sz) * w).sum(1)
    return torch.stack([mid, micro, imb]).to(book.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    T = META["sizes"][size]["T"]
    return {"bytes": 4 * T * 4 * LEVELS + 4 * 3 * T, "flops": 8 * T * LEVELS + 12 * T}
