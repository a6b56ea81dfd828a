"""MDAnalysis InterRDF counts on the NPU: minimum-image pair distances binned into a 75-bin histogram."""
import torch
import triton
import triton.language as tl

NBINS = tl.constexpr(75)
RMAX = tl.constexpr(15.0)
NUM_PROGRAMS = 40  # Atlas A2 (910B4): 40 AI vector cores
BLOCK_I = 4
BLOCK_J = 16


@triton.jit
def _min_image(d, edge):
    return d - edge * tl.floor(d / edge + 0.5)


@triton.jit
def _pair_bins(frame, xi, yi, zi, i_ok, j, n_atoms, lx, ly, lz):
    j_ok = j < n_atoms
    xj = tl.load(frame + j * 3, mask=j_ok, other=0.0)
    yj = tl.load(frame + j * 3 + 1, mask=j_ok, other=0.0)
    zj = tl.load(frame + j * 3 + 2, mask=j_ok, other=0.0)
    dx = _min_image(xj[None, :] - xi[:, None], lx)
    dy = _min_image(yj[None, :] - yi[:, None], ly)
    dz = _min_image(zj[None, :] - zi[:, None], lz)
    d2 = dx * dx + dy * dy + dz * dz
    r = tl.sqrt(d2)
    keep = (d2 > 0.0) & (r < RMAX) & i_ok[:, None] & j_ok[None, :]
    return tl.minimum(tl.floor(r * (NBINS / RMAX)), NBINS - 1.0), keep


@triton.jit
def _rdf_counts(pos, box, counts, n_frames, n_atoms, BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    n_iblk = tl.cdiv(n_atoms, BLOCK_I)
    for t in range(tl.program_id(0), n_frames * n_iblk, tl.num_programs(0)):
        f = t // n_iblk
        i = (t - f * n_iblk) * BLOCK_I + tl.arange(0, BLOCK_I)
        i_ok = i < n_atoms
        frame = pos + f * n_atoms * 3
        lx = tl.load(box + f * 3)
        ly = tl.load(box + f * 3 + 1)
        lz = tl.load(box + f * 3 + 2)
        xi = tl.load(frame + i * 3, mask=i_ok, other=0.0)
        yi = tl.load(frame + i * 3 + 1, mask=i_ok, other=0.0)
        zi = tl.load(frame + i * 3 + 2, mask=i_ok, other=0.0)
        for j0 in range(0, n_atoms, BLOCK_J):
            j = j0 + tl.arange(0, BLOCK_J)
            b, keep = _pair_bins(frame, xi, yi, zi, i_ok, j, n_atoms, lx, ly, lz)
            tl.atomic_add(counts + b.to(tl.int32), 1, mask=keep)


def run(pos: torch.Tensor, box: torch.Tensor) -> torch.Tensor:
    n_frames, n_atoms, _ = pos.shape
    counts = torch.zeros(NBINS, device=pos.device, dtype=torch.int32)
    grid = (min(NUM_PROGRAMS, n_frames * triton.cdiv(n_atoms, BLOCK_I)),)
    _rdf_counts[grid](pos, box, counts, n_frames, n_atoms, BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J)
    return counts
