"""Halo-update pack of the tracer registry (MOM6 group pass of all tracers, FMS mpp_update_domains send side).

Every tracer is stored on the data domain [nz, ny + 2h, nx + 2h] (compute domain plus a halo of width h);
the registry is one array tr [ntr, nz, ny + 2h, nx + 2h]. Before the MPI exchange, the h outermost
rows/columns of the compute domain are packed into one send message per neighbour:
    W: rows h .. h+ny-1,  columns h .. 2h-1         -> [ntr, nz, ny, h]
    E: rows h .. h+ny-1,  columns nx .. nx+h-1      -> [ntr, nz, ny, h]
    S: rows h .. 2h-1,    columns h .. h+nx-1       -> [ntr, nz, h, nx]
    N: rows ny .. ny+h-1, columns h .. h+nx-1       -> [ntr, nz, h, nx]
each message ordered (tracer, level, j, i) as FMS packs it, and the four messages laid end to end
(W, E, S, N) in one flat send buffer. Corners travel in the second (N/S) phase of the exchange and are
not part of this pack. Returns the send buffer, fp32 [ntr * nz * 2h * (nx + ny)].
"""
import torch

META = {
    "name": "tracer_halo_pack",
    "level": 1,
    "category": "halo-exchange",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"ntr": 3, "nz": 2, "ny": 6, "nx": 8, "h": 2},
        "ragged": {"ntr": 2, "nz": 3, "ny": 7, "nx": 9, "h": 3},
        "large": {"ntr": 32, "nz": 75, "ny": 270, "nx": 360, "h": 4},
    },
    "baseline_notes": "Two launches: an E/W strip kernel (tiles [64 rows, h] walking the strip) and an N/S strip "
                      "kernel (tiles [h, next_pow2(nx)]), each with grid (nz, 2 sides, ntr), so every tracer, "
                      "level and side is packed in one launch per strip shape; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Tracer registry tr [ntr, nz, ny + 2h, nx + 2h] (halos hold stale values) and the halo width h."""
    s = META["sizes"][size]
    ntr, nz, ny, nx, h = s["ntr"], s["nz"], s["ny"], s["nx"], s["h"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    scale = torch.logspace(-3, 1.5, ntr)[:, None, None, None]      # T/S-sized down to trace-nutrient-sized
    tr = torch.rand(ntr, nz, ny + 2 * h, nx + 2 * h, generator=g) * scale
    return tr.to(device=device, dtype=dt), h


def reference(tr: torch.Tensor, h: int) -> torch.Tensor:
    ny, nx = tr.shape[2] - 2 * h, tr.shape[3] - 2 * h
    west = tr[:, :, h:h + ny, h:2 * h]
    east = tr[:, :, h:h + ny, nx:nx + h]
    south = tr[:, :, h:2 * h, h:h + nx]
    north = tr[:, :, ny:ny + h, h:h + nx]
    return torch.cat([m.reshape(-1) for m in (west, east, south, north)])


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["ntr"] * s["nz"] * 2 * s["h"] * (s["nx"] + s["ny"])
    return {"bytes": 8 * n, "flops": 0}
