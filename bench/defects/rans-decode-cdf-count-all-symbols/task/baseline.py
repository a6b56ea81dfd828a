"""Interleaved rANS decoding: one lane per stream, the symbol of each slot by binary search of the cdf."""
import torch
import triton
import triton.language as tl


@triton.jit
def _lookup_symbol(cdf_ptr, slot, NUM_SYMBOLS: tl.constexpr, LOG2_SYMBOLS: tl.constexpr):
    sym = tl.zeros(slot.shape, dtype=tl.int32)
    for b in tl.static_range(LOG2_SYMBOLS):
        probe = sym + (NUM_SYMBOLS >> (b + 1))
        c = tl.load(cdf_ptr + probe)
        sym = tl.where(c <= slot, probe, sym)
    return sym


@triton.jit
def rans_decode_kernel(state_ptr, words_ptr, freq_ptr, cdf_ptr, out_ptr, S, L,
                       PROB_BITS: tl.constexpr, RANS_L: tl.constexpr, NUM_SYMBOLS: tl.constexpr,
                       LOG2_SYMBOLS: tl.constexpr, BLOCK_S: tl.constexpr):
    lanes = tl.program_id(0) * BLOCK_S + tl.arange(0, BLOCK_S)
    valid = lanes < S
    x = tl.load(state_ptr + lanes, mask=valid, other=RANS_L)
    pos = tl.zeros((BLOCK_S,), dtype=tl.int32)
    for i in range(L):
        slot = (x & ((1 << PROB_BITS) - 1)).to(tl.int32)
        sym = _lookup_symbol(cdf_ptr, slot, NUM_SYMBOLS, LOG2_SYMBOLS)
        f = tl.load(freq_ptr + sym).to(tl.int64)
        c = tl.load(cdf_ptr + sym)
        x = f * (x >> PROB_BITS) + (slot - c)
        need = x < RANS_L
        w = tl.load(words_ptr + pos * S + lanes, mask=valid & need, other=0).to(tl.int64) & 0xFFFF
        x = tl.where(need, (x << 16) | w, x)
        pos += need.to(tl.int32)
        tl.store(out_ptr + i * S + lanes, sym.to(tl.uint8), mask=valid)


def run(states: torch.Tensor, words: torch.Tensor, freq: torch.Tensor, cdf: torch.Tensor, L: int) -> torch.Tensor:
    S = states.shape[0]
    num_symbols = freq.shape[0]
    out = torch.empty((L, S), device=states.device, dtype=torch.uint8)
    BLOCK_S = 128
    rans_decode_kernel[(triton.cdiv(S, BLOCK_S),)](
        states, words, freq, cdf, out, S, L, PROB_BITS=12, RANS_L=1 << 16, NUM_SYMBOLS=num_symbols,
        LOG2_SYMBOLS=num_symbols.bit_length() - 1, BLOCK_S=BLOCK_S, num_warps=4)
    return out
