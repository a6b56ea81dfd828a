"""Secondary -> track-initializer stack compaction (Celeritas ExtendFromSecondariesAction).

After the interaction step every track slot i has produced n_i in {0, 1, 2} secondaries (photoelectric
and Compton electrons, delta rays, the e+e- of a conversion), stored per slot in fixed-size arrays. The
action turns them into a contiguous stack of track initializers: an exclusive prefix sum of the counts
gives each slot its offset o_i = sum_{j<i} n_j, and secondary k < n_i of slot i becomes initializer o_i + k
(energy, particle id, direction, the parent's position and the parent's track id). Returns the offsets,
the total number of initializers and the stack arrays (sized for the worst case 2 * N; entries past the
total stay zero).
"""
import math

import torch

META = {
    "name": "secondary_initializer_stack",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"N": 2500},
        "ragged": {"N": 3333},
        "large": {"N": 1048576},
    },
    "baseline_notes": "Two launches: per-block totals of the secondary counts (1024 slots per program), then "
                      "one program per block takes its base offset from the masked sum of the block totals "
                      "before it, adds tl.cumsum of its own counts and scatters its slots' secondaries into "
                      "the initializer stack. 4 warps, no autotune.",
    "deterministic": True,
}
MAX_SEC = 2


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """n_sec [N] int32, sec_energy [N, 2] (MeV), sec_particle [N, 2] int32 (0 gamma, 1 e-, 2 e+),
    sec_dir [N, 2, 3] unit vectors, track_id [N] int32 (parent ids), pos [N, 3] (parent positions, mm)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = torch.rand(n, generator=g)
    n_sec = (u > 0.55).to(torch.int32) + (u > 0.90).to(torch.int32)        # 55 % none, 35 % one, 10 % two
    used = torch.arange(MAX_SEC)[None, :] < n_sec[:, None].long()
    energy = torch.exp(torch.empty(n, MAX_SEC).uniform_(math.log(1e-3), math.log(1e3), generator=g))
    particle = torch.randint(0, 3, (n, MAX_SEC), generator=g, dtype=torch.int32)
    cos_t = torch.empty(n, MAX_SEC).uniform_(-1.0, 1.0, generator=g)
    phi = torch.empty(n, MAX_SEC).uniform_(0.0, 2.0 * math.pi, generator=g)
    sin_t = torch.sqrt(1.0 - cos_t * cos_t)
    direction = torch.stack([sin_t * torch.cos(phi), sin_t * torch.sin(phi), cos_t], dim=-1)
    energy = torch.where(used, energy, torch.zeros_like(energy))
    particle = torch.where(used, particle, torch.zeros_like(particle))
    direction = torch.where(used[..., None], direction, torch.zeros_like(direction))
    track_id = torch.randperm(4 * n, generator=g)[:n].to(torch.int32)
    pos = torch.empty(n, 3).uniform_(-2000.0, 2000.0, generator=g)
    return (n_sec.to(device), energy.to(device=device, dtype=dt), particle.to(device),
            direction.to(device=device, dtype=dt), track_id.to(device), pos.to(device=device, dtype=dt))


def reference(n_sec, sec_energy, sec_particle, sec_dir, track_id, pos) -> tuple:
    n = n_sec.shape[0]
    counts = n_sec.long()
    offsets = torch.cumsum(counts, 0) - counts
    total = counts.sum().reshape(1)
    slot = torch.arange(MAX_SEC, device=n_sec.device)
    used = slot[None, :] < counts[:, None]
    dst = (offsets[:, None] + slot[None, :])[used]
    parent = torch.arange(n, device=n_sec.device)[:, None].expand(n, MAX_SEC)[used]
    init_energy = torch.zeros(MAX_SEC * n, dtype=sec_energy.dtype, device=n_sec.device)
    init_particle = torch.zeros(MAX_SEC * n, dtype=torch.int32, device=n_sec.device)
    init_parent = torch.zeros(MAX_SEC * n, dtype=torch.int32, device=n_sec.device)
    init_pos = torch.zeros(MAX_SEC * n, 3, dtype=pos.dtype, device=n_sec.device)
    init_dir = torch.zeros(MAX_SEC * n, 3, dtype=sec_dir.dtype, device=n_sec.device)
    init_energy[dst] = sec_energy[used]
    init_particle[dst] = sec_particle[used]
    init_parent[dst] = track_id[parent]
    init_pos[dst] = pos[parent]
    init_dir[dst] = sec_dir[used]
    return (offsets.to(torch.int32), total.to(torch.int32), init_energy, init_particle, init_parent,
            init_pos, init_dir)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    # read counts, secondaries, ids and positions; write offsets and the 2N-slot stack
    return {"bytes": n * (4 + 8 + 8 + 24 + 4 + 12) + n * 4 + MAX_SEC * n * (4 + 4 + 4 + 12 + 12),
            "flops": 2 * n}
