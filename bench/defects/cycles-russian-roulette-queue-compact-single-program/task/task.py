"""Cycles Russian roulette at the end of shade_surface, then the next intersect_closest queue built from the survivors.

Every path state that shaded a surface this wavefront step decides whether it continues
(path_state_continuation_probability + the terminate draw of integrate_surface):
    p = 0                                       if bounce >= max_bounce
    p = 1                                       if bounce <= min_bounce
    p = min(sqrt(max(|throughput|)), 1)         otherwise
    p == 1: continue;  else rand >= p: terminate;  else continue with throughput /= p
The terminate draw is modelled with Cycles' hash_uint3 (util/hash.h, Bob Jenkins' lookup3 final
mix) of (rng_hash, sample, dimension = bounce * PRNG_BOUNCE_NUM + PRNG_TERMINATE) mapped to
[0, 1) with uint_to_float_excl, standing in for the Sobol-Burley table lookup.
The states are then partitioned into one index array, as gpu_parallel_active_index_array does for
integrator_queued_paths_array (survivors: the next intersect_closest queue) and
integrator_terminated_paths_array (free states that init_from_camera refills): survivors from the
front in ascending state order, terminated states from the back (the k-th terminated state, in
state order, at N - 1 - k), so the result is deterministic.
Returns (throughput fp32 [N, 3]: divided by p for survivors, 0 for terminated states,
queue int32 [N]: the partition above, num_queued int32 [1]: the number of survivors).
"""
import torch

META = {
    "name": "cycles_russian_roulette_queue",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 2500},
        "ragged": {"N": 3001},
        "large": {"N": 2097152},
    },
    "baseline_notes": "Two launches over blocks of 1024 states: the roulette kernel (fp32, exact sqrt, uint32 "
                      "hash) writes the new throughput, a survive flag per state and the survivor count of "
                      "its block; the queue kernel gives each block its offsets (sum of the counts of the "
                      "blocks before it) and scatters survivors from the front and terminated states from "
                      "the back at offset + exclusive cumsum. "
                      "4 warps, no autotune.",
    "deterministic": True,
}
PRNG_BOUNCE_NUM = 8
PRNG_TERMINATE = 7
MIN_BOUNCE = 3
MAX_BOUNCE = 12
_M = 0xFFFFFFFF


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """throughput [N, 3] fp32, bounce [N] int32, rng_hash [N] int32 (uint bits), sample [N] int32,
    min_bounce (int), max_bounce (int)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # states at every depth of the path, fewer at deep bounces
    bounce = torch.multinomial(0.75 ** torch.arange(MAX_BOUNCE + 1.0), n, replacement=True, generator=g)
    albedo = 0.25 + 0.75 * torch.rand(n, 3, generator=g)
    throughput = albedo * (0.8 ** bounce.float())[:, None] * (1.0 + 2.0 * (torch.rand(n, 1, generator=g) < 0.1))
    rng_hash = torch.randint(-2**31, 2**31, (n,), generator=g, dtype=torch.int64).to(torch.int32)
    sample = torch.randint(0, 1024, (n,), generator=g, dtype=torch.int32)
    return (throughput.to(dt).to(device), bounce.to(torch.int32).to(device), rng_hash.to(device),
            sample.to(device), MIN_BOUNCE, MAX_BOUNCE)


def _rot(x, k):
    return ((x << k) | (x >> (32 - k))) & _M


def hash_uint3(kx, ky, kz):
    """Cycles hash_uint3 on int64 tensors holding uint32 values."""
    init = (0xDEADBEEF + (3 << 2) + 13) & _M
    a, b, c = (kx + init) & _M, (ky + init) & _M, (kz + init) & _M
    c = ((c ^ b) - _rot(b, 14)) & _M
    a = ((a ^ c) - _rot(c, 11)) & _M
    b = ((b ^ a) - _rot(a, 25)) & _M
    c = ((c ^ b) - _rot(b, 16)) & _M
    a = ((a ^ c) - _rot(c, 4)) & _M
    b = ((b ^ a) - _rot(a, 14)) & _M
    c = ((c ^ b) - _rot(b, 24)) & _M
    return c


def reference(throughput, bounce, rng_hash, sample, min_bounce, max_bounce) -> tuple:
    t = throughput.float()
    b = bounce.long()
    p = torch.sqrt(t.abs().amax(dim=1)).clamp(max=1.0)
    p = torch.where(b <= min_bounce, torch.ones_like(p), p)
    p = torch.where(b >= max_bounce, torch.zeros_like(p), p)
    dim = b * PRNG_BOUNCE_NUM + PRNG_TERMINATE
    h = hash_uint3(rng_hash.long() & _M, sample.long(), dim)
    rand = h.to(torch.float32) * torch.tensor(1.0 / 4294967808.0, dtype=torch.float32)
    alive = (p == 1.0) | (rand < p)
    out = torch.where(alive[:, None], t / torch.where(alive, p, torch.ones_like(p))[:, None], torch.zeros_like(t))
    idx = torch.nonzero(alive).flatten()
    free = torch.nonzero(~alive).flatten()
    queue = torch.cat([idx, free.flip(0)]).to(torch.int32)
    num = torch.tensor([idx.numel()], dtype=torch.int32, device=t.device)
    return out.to(throughput.dtype), queue, num


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": n * (24 + 16 + 8), "flops": n * 40}
