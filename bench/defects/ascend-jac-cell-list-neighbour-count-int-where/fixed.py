"""Cell-list neighbour counts: per sorted atom, the atoms of the 27 surrounding cells within the cutoff."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40


@triton.jit
def _neighbour_count(pos, cell_start, counts, N, nc, box, cutoff2,
                     BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    ii = tl.arange(0, BLOCK_I)
    jj = tl.arange(0, BLOCK_J)
    for c in range(pid, nc * nc * nc, nprog):
        cx = c // (nc * nc)
        cy = (c // nc) % nc
        cz = c % nc
        h_lo = tl.load(cell_start + c)
        h_hi = tl.load(cell_start + c + 1)
        for i0 in range(h_lo, h_hi, BLOCK_I):
            gi = i0 + ii
            i_live = gi < h_hi
            xi = tl.load(pos + gi, mask=i_live, other=0.0)
            yi = tl.load(pos + N + gi, mask=i_live, other=0.0)
            zi = tl.load(pos + 2 * N + gi, mask=i_live, other=0.0)
            gi_f = gi.to(tl.float32)
            found = tl.zeros([BLOCK_I], dtype=tl.float32)
            for ox in range(0, 3):
                ax = cx + ox - 1
                wx = (ax >= nc).to(tl.int32) - (ax < 0).to(tl.int32)
                sx = wx * box
                for oy in range(0, 3):
                    ay = cy + oy - 1
                    wy = (ay >= nc).to(tl.int32) - (ay < 0).to(tl.int32)
                    sy = wy * box
                    col = (ax - wx * nc) * nc + (ay - wy * nc)
                    for oz in range(0, 3):
                        az = cz + oz - 1
                        wz = (az >= nc).to(tl.int32) - (az < 0).to(tl.int32)
                        sz = wz * box
                        other = col * nc + (az - wz * nc)
                        j_lo = tl.load(cell_start + other)
                        j_hi = tl.load(cell_start + other + 1)
                        for j0 in range(j_lo, j_hi, BLOCK_J):
                            gj = j0 + jj
                            j_live = gj < j_hi
                            xj = tl.load(pos + gj, mask=j_live, other=0.0) + sx
                            yj = tl.load(pos + N + gj, mask=j_live, other=0.0) + sy
                            zj = tl.load(pos + 2 * N + gj, mask=j_live, other=0.0) + sz
                            dx = xi[:, None] - xj[None, :]
                            dy = yi[:, None] - yj[None, :]
                            dz = zi[:, None] - zj[None, :]
                            near = (dx * dx + dy * dy + dz * dz) < cutoff2
                            gj_f = gj.to(tl.float32)
                            keep = near & (gj_f < j_hi.to(tl.float32))[None, :] & (gi_f[:, None] != gj_f[None, :])
                            found += tl.sum(tl.where(keep, 1.0, 0.0), axis=1)
            tl.store(counts + gi, found.to(tl.int32), mask=i_live)


def run(pos: torch.Tensor, cell_start: torch.Tensor, box: float, cutoff: float, nc: int) -> torch.Tensor:
    N = pos.shape[1]
    counts = torch.empty(N, device=pos.device, dtype=torch.int32)
    grid = (max(1, min(VECTOR_CORES, nc ** 3)),)
    _neighbour_count[grid](pos, cell_start, counts, N, nc, box, cutoff * cutoff, BLOCK_I=16, BLOCK_J=128)
    return counts
