"""Celeritas ExtendFromSecondaries: exclusive scan of per-slot secondary counts, then scatter into the
track-initializer stack."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
MAX_SEC = 2


@triton.jit
def _block_totals(n_sec, block_total, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    slot = pid * BLOCK + tl.arange(0, BLOCK)
    cnt = tl.load(n_sec + slot, mask=slot < n, other=0)
    tl.store(block_total + pid, tl.sum(cnt, axis=0))


@triton.jit
def _extend_from_secondaries(n_sec, block_total, sec_energy, sec_particle, sec_dir, track_id, pos,
                             offsets, total, init_energy, init_particle, init_parent, init_pos, init_dir,
                             n, BLOCK: tl.constexpr, BLOCKS_POW2: tl.constexpr, MAX_SEC: tl.constexpr):
    pid = tl.program_id(0)
    # initializers created by all slots before this block: one total per earlier block
    blocks = tl.arange(0, BLOCKS_POW2)
    base = tl.sum(tl.load(block_total + blocks, mask=blocks < pid, other=0), axis=0)

    slot = pid * BLOCK + tl.arange(0, BLOCK)
    ok = slot < n
    cnt = tl.load(n_sec + slot, mask=ok, other=0)
    off = base + tl.cumsum(cnt, axis=0) - cnt
    tl.store(offsets + slot, off, mask=ok)
    tl.store(total, base + tl.sum(cnt, axis=0), mask=pid == tl.num_programs(0) - 1)

    parent = tl.load(track_id + slot, mask=ok, other=0)
    px = tl.load(pos + 3 * slot, mask=ok, other=0.0)
    py = tl.load(pos + 3 * slot + 1, mask=ok, other=0.0)
    pz = tl.load(pos + 3 * slot + 2, mask=ok, other=0.0)
    for k in tl.static_range(MAX_SEC):
        live = ok & (cnt > k)
        src = MAX_SEC * slot + k
        dst = off + k
        e = tl.load(sec_energy + src, mask=live, other=0.0)
        pdg = tl.load(sec_particle + src, mask=live, other=0)
        ux = tl.load(sec_dir + 3 * src, mask=live, other=0.0)
        uy = tl.load(sec_dir + 3 * src + 1, mask=live, other=0.0)
        uz = tl.load(sec_dir + 3 * src + 2, mask=live, other=0.0)
        tl.store(init_energy + dst, e, mask=live)
        tl.store(init_particle + dst, pdg, mask=live)
        tl.store(init_parent + dst, parent, mask=live)
        tl.store(init_pos + 3 * dst, px, mask=live)
        tl.store(init_pos + 3 * dst + 1, py, mask=live)
        tl.store(init_pos + 3 * dst + 2, pz, mask=live)
        tl.store(init_dir + 3 * dst, ux, mask=live)
        tl.store(init_dir + 3 * dst + 1, uy, mask=live)
        tl.store(init_dir + 3 * dst + 2, uz, mask=live)


def run(n_sec, sec_energy, sec_particle, sec_dir, track_id, pos) -> tuple:
    n = n_sec.shape[0]
    dev = n_sec.device
    n_blocks = triton.cdiv(n, BLOCK)
    block_total = torch.empty(n_blocks, device=dev, dtype=torch.int32)
    offsets = torch.empty(n, device=dev, dtype=torch.int32)
    total = torch.empty(1, device=dev, dtype=torch.int32)
    init_energy = torch.zeros(MAX_SEC * n, device=dev, dtype=sec_energy.dtype)
    init_particle = torch.zeros(MAX_SEC * n, device=dev, dtype=torch.int32)
    init_parent = torch.zeros(MAX_SEC * n, device=dev, dtype=torch.int32)
    init_pos = torch.zeros(MAX_SEC * n, 3, device=dev, dtype=pos.dtype)
    init_dir = torch.zeros(MAX_SEC * n, 3, device=dev, dtype=sec_dir.dtype)
    _block_totals[(n_blocks,)](n_sec, block_total, n, BLOCK=BLOCK, num_warps=4)
    _extend_from_secondaries[(n_blocks,)](n_sec, block_total, sec_energy, sec_particle, sec_dir, track_id, pos,
                                          offsets, total, init_energy, init_particle, init_parent, init_pos,
                                          init_dir, n, BLOCK=BLOCK, BLOCKS_POW2=triton.next_power_of_2(n_blocks),
                                          MAX_SEC=MAX_SEC, num_warps=4)
    return offsets, total, init_energy, init_particle, init_parent, init_pos, init_dir
