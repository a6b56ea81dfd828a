"""Legalisation displacement statistics per cell-height class (ICCAD 2017 multi-deck legalisation metric).

For every movable cell, disp = (|x - init_x| + |y - init_y|) / row_height (Manhattan displacement in
row heights); cells are grouped by their height in rows (1..4). Outputs per class: total
displacement (fp32), cell count (int32) and largest displacement (fp32; 0 for an empty class).
The contest's average-displacement score is sum / count averaged over the classes.
"""
import torch

META = {
    "name": "legal_displacement_by_height",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"cells": 3000},
        "ragged": {"cells": 5003},
        "large": {"cells": 2177353},
    },
    "baseline_notes": "2048 cells per program: displacements computed in registers, a [BLOCK, 4] one-hot of the "
                      "height class reduced to per-class sum / count / max, then one atomic per class per "
                      "program; 8 warps, no autotune.",
    "deterministic": True,
}

MAX_ROWS = 4
ROW_HEIGHT = 2000.0   # DBU (ICCAD 2017: 2000 DBU per micron, 1 um rows)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x, y, init_x, init_y [N] fp32 (legalised and global-placement lower-left corners), rows [N] int32 (1..4),
    row_height (float)."""
    n = META["sizes"][size]["cells"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = torch.rand(n, generator=g)
    rows = 1 + (u >= 0.80).int() + (u >= 0.92).int() + (u >= 0.97).int()
    die_w, num_rows = 8.0e5, 400
    init_x = torch.rand(n, generator=g) * die_w
    init_y = torch.rand(n, generator=g) * (num_rows - rows).float() * ROW_HEIGHT
    # taller cells move further: they must find a row span with the right power-rail parity
    reach = rows.float()
    dx = torch.randn(n, generator=g) * 1.5 * ROW_HEIGHT * reach
    dx = dx * (1.0 + 4.0 * (torch.rand(n, generator=g) < 0.01).float())
    dy_rows = torch.round(torch.randn(n, generator=g) * reach)
    x = (init_x + dx).clamp(0.0, die_w)
    y = ((torch.round(init_y / ROW_HEIGHT) + dy_rows).clamp(0, num_rows - 4) * ROW_HEIGHT)
    return (x.to(dt).to(device), y.to(dt).to(device), init_x.to(dt).to(device), init_y.to(dt).to(device),
            rows.to(torch.int32).to(device), ROW_HEIGHT)


def reference(x, y, init_x, init_y, rows, row_height):
    d = ((x.double() - init_x.double()).abs() + (y.double() - init_y.double()).abs()) / row_height
    cls = (rows - 1).long()
    total = torch.zeros(MAX_ROWS, dtype=torch.float64, device=x.device).index_add_(0, cls, d)
    count = torch.bincount(cls, minlength=MAX_ROWS).to(torch.int32)
    worst = torch.zeros(MAX_ROWS, dtype=torch.float64, device=x.device).scatter_reduce(0, cls, d, "amax")
    return total.to(x.dtype), count, worst.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["cells"]
    return {"bytes": 20 * n + 48, "flops": 6 * n}
