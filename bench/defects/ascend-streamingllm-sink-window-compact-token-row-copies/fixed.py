"""StreamingLLM KV-cache compaction: keep each request's first `sink` and last `window` tokens of one layer's K and V."""
import torch
import triton
import triton.language as tl

PROGRAMS = 40
BLOCK_T = 64


@triton.jit
def _sink_window_compact(k_cache, v_cache, seq_lens, k_out, v_out, n_pairs, HKV, LMAX, sink, window,
                         D: tl.constexpr, SINK_BLOCK: tl.constexpr, BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    keep = sink + window
    d = tl.arange(0, D)
    s = tl.arange(0, SINK_BLOCK)
    for pair in range(pid, n_pairs, tl.num_programs(0)):
        length = tl.load(seq_lens + pair // HKV)
        src = pair * LMAX * D
        dst = pair * keep * D
        sink_rows = (s < sink)[:, None]
        sink_offs = s[:, None] * D + d[None, :]
        tl.store(k_out + dst + sink_offs, tl.load(k_cache + src + sink_offs, mask=sink_rows), mask=sink_rows)
        tl.store(v_out + dst + sink_offs, tl.load(v_cache + src + sink_offs, mask=sink_rows), mask=sink_rows)
        src_win = src + (length - window) * D
        dst_win = dst + sink * D
        for start in range(0, window, BLOCK_T):
            t = start + tl.arange(0, BLOCK_T)
            rows = (t < window)[:, None]
            offs = t[:, None] * D + d[None, :]
            tl.store(k_out + dst_win + offs, tl.load(k_cache + src_win + offs, mask=rows), mask=rows)
            tl.store(v_out + dst_win + offs, tl.load(v_cache + src_win + offs, mask=rows), mask=rows)


def run(k_cache: torch.Tensor, v_cache: torch.Tensor, seq_lens: torch.Tensor, sink: int, window: int) -> tuple:
    batch, hkv, lmax, d = k_cache.shape
    k_out = torch.empty(batch, hkv, sink + window, d, device=k_cache.device, dtype=k_cache.dtype)
    v_out = torch.empty_like(k_out)
    n_pairs = batch * hkv
    grid = (min(PROGRAMS, n_pairs),)
    _sink_window_compact[grid](k_cache, v_cache, seq_lens, k_out, v_out, n_pairs, hkv, lmax, sink, window,
                               D=d, SINK_BLOCK=triton.next_power_of_2(sink), BLOCK_T=BLOCK_T)
    return k_out, v_out
