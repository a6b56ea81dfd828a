# backend: cuda
import triton
import triton.language as tl


@triton.jit
def shared_items(item_ptr, user_start, user_len, pairs, out, TILE_U: tl.constexpr, TILE_V: tl.constexpr):
    q = tl.program_id(0)
    u = tl.load(pairs + 2 * q)
    v = tl.load(pairs + 2 * q + 1)
    lane_u = tl.arange(0, TILE_U)
    mine = tl.load(item_ptr + tl.load(user_start + u) + lane_u, mask=lane_u < tl.load(user_len + u), other=-1)
    sv = tl.load(user_start + v)
    nv = tl.load(user_len + v)
    count = tl.zeros([TILE_U], dtype=tl.int32)
    for off in range(0, nv, TILE_V):
        lane_v = off + tl.arange(0, TILE_V)
        theirs = tl.load(item_ptr + sv + lane_v, mask=lane_v < nv, other=-2)
        count += tl.sum((mine[:, None] == theirs[None, :]).to(tl.int32), axis=1)  # expect: common-linear-table-scan
    tl.store(out + q, tl.sum(count, axis=0))


def run(item_ptr, user_start, user_len, pairs, out):
    shared_items[(pairs.numel() // 2,)](item_ptr, user_start, user_len, pairs, out, TILE_U=128, TILE_V=64)
