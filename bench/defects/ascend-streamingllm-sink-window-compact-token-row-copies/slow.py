"""StreamingLLM KV-cache compaction: keep each request's first `sink` and last `window` tokens of one layer's K and V."""
import torch
import triton
import triton.language as tl

PROGRAMS = 40


@triton.jit
def _sink_window_compact(k_cache, v_cache, seq_lens, k_out, v_out, n_pairs, HKV, LMAX, sink, window,
                         D: tl.constexpr):
    pid = tl.program_id(0)
    keep = sink + window
    d = tl.arange(0, D)
    for pair in range(pid, n_pairs, tl.num_programs(0)):
        length = tl.load(seq_lens + pair // HKV)
        src = pair * LMAX * D
        dst = pair * keep * D
        evicted = length - keep
        for t in range(keep):
            pos = tl.where(t < sink, t, t + evicted)
            tl.store(k_out + dst + t * D + d, tl.load(k_cache + src + pos * D + d))
            tl.store(v_out + dst + t * D + d, tl.load(v_cache + src + pos * D + d))


def run(k_cache: torch.Tensor, v_cache: torch.Tensor, seq_lens: torch.Tensor, sink: int, window: int) -> tuple:
    batch, hkv, lmax, d = k_cache.shape
    k_out = torch.empty(batch, hkv, sink + window, d, device=k_cache.device, dtype=k_cache.dtype)
    v_out = torch.empty_like(k_out)
    n_pairs = batch * hkv
    grid = (min(PROGRAMS, n_pairs),)
    _sink_window_compact[grid](k_cache, v_cache, seq_lens, k_out, v_out, n_pairs, hkv, lmax, sink, window, D=d)
    return k_out, v_out
