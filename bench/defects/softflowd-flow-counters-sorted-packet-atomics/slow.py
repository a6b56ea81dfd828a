"""Flow-meter counters: fold a batch of flow-sorted packet records into per-flow packets, octets,
first/last timestamps and the OR of TCP flags."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
FILL_BLOCK = 1024
INT64_MAX = 2**63 - 1


@triton.jit
def _fill_i64(out, value, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.full([BLOCK], value, tl.int64), mask=offs < n)


@triton.jit
def _flow_update(flow_id, ip_len, ts, flags, packets, octets, first, last, tcp_flags, n,
                 BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    f = tl.load(flow_id + offs, mask=ok, other=0)
    length = tl.load(ip_len + offs, mask=ok, other=0).to(tl.int64)
    t = tl.load(ts + offs, mask=ok, other=0)
    fl = tl.load(flags + offs, mask=ok, other=0).to(tl.int32)
    one = tl.full([BLOCK], 1, tl.int32)
    tl.atomic_add(packets + f, one, mask=ok)
    tl.atomic_add(octets + f, length, mask=ok)
    tl.atomic_min(first + f, t, mask=ok)
    tl.atomic_max(last + f, t, mask=ok)
    tl.atomic_or(tcp_flags + f, fl, mask=ok)


def run(flow_id: torch.Tensor, ip_len: torch.Tensor, ts: torch.Tensor, tcp_flags: torch.Tensor,
        n_flows: int) -> tuple:
    n = flow_id.shape[0]
    dev = flow_id.device
    packets = torch.zeros(n_flows, device=dev, dtype=torch.int32)
    octets = torch.zeros(n_flows, device=dev, dtype=torch.int64)
    first = torch.empty(n_flows, device=dev, dtype=torch.int64)
    last = torch.zeros(n_flows, device=dev, dtype=torch.int64)
    flags = torch.zeros(n_flows, device=dev, dtype=torch.int32)
    _fill_i64[(triton.cdiv(n_flows, FILL_BLOCK),)](first, INT64_MAX, n_flows, BLOCK=FILL_BLOCK)
    grid = (triton.cdiv(n, BLOCK),)
    _flow_update[grid](flow_id, ip_len, ts, tcp_flags, packets, octets, first, last, flags, n,
                       BLOCK=BLOCK, num_warps=4)
    return packets, octets, first, last, flags
