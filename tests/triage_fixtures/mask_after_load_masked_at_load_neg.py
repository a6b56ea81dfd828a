# backend: cuda
# absent: common-mask-after-load
import triton
import triton.language as tl


@triton.jit
def pairs(vals, times, n_items, keys, FAN: tl.constexpr, FAN_POW2: tl.constexpr):
    i = tl.program_id(0)
    n = tl.load(n_items)
    t1 = tl.load(times + i)
    j = tl.arange(0, FAN_POW2)
    partner = i + j
    # the partners past the end are skipped at the load: the select adds only a test of the data
    exists = (j >= 1) & (j < FAN) & (partner < n)
    v = tl.load(vals + partner, mask=exists, other=0)
    t2 = tl.load(times + partner, mask=exists, other=0)
    ok = exists & (t2 - t1 <= 200)
    key = tl.where(ok, v * 256 + (t2 - t1), -1)
    tl.store(keys + i * FAN + j, key, mask=j < FAN)
