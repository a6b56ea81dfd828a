"""Interleaved rANS decoding of byte symbols (DietGPU-style float compression: the exponent bytes of
bf16 data are entropy-coded as many independent rANS streams, 12-bit probabilities, 32-bit state,
16-bit renormalization words). Stream s decodes symbols out[0, s], out[1, s], ... from its final
encoder state; its words are stored interleaved with the other streams' ([word index, stream])."""
import torch

META = {
    "name": "rans_decode_interleaved",
    "level": 2,
    "category": "codec",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"S": 96, "L": 40},
        "ragged": {"S": 150, "L": 33},
        "large": {"S": 65536, "L": 512},
    },
    "baseline_notes": "One lane per stream, 128 streams per program (4 warps), a serial loop over the L symbols: "
                      "slot = state & 4095, the symbol by an 8-step binary search of the 257-entry cumulative "
                      "frequency table (largest s with cdf[s] <= slot), state update, one masked 16-bit word "
                      "load when the state drops below 2^16; symbols stored [L, S] (coalesced across lanes).",
    "deterministic": True,
}

PROB_BITS = 12
RANS_L = 1 << 16
NUM_SYMBOLS = 256


def _freq_table(sym: torch.Tensor) -> torch.Tensor:
    """Normalized frequencies summing to 2^PROB_BITS, >= 1 for every symbol that occurs."""
    counts = torch.bincount(sym.flatten().long(), minlength=NUM_SYMBOLS)
    freq = (counts * (1 << PROB_BITS)) // counts.sum()
    freq = torch.where(counts > 0, freq.clamp(min=1), freq)
    top = torch.argmax(freq)
    freq[top] += (1 << PROB_BITS) - freq.sum()
    return freq


def _encode(sym: torch.Tensor, freq: torch.Tensor, cdf: torch.Tensor) -> tuple:
    """rANS-encode every column of sym [L, S] (last symbol first); words come back in decode order."""
    L, S = sym.shape
    dev = sym.device
    lanes = torch.arange(S, device=dev)
    x = torch.full((S,), RANS_L, dtype=torch.int64, device=dev)
    emitted = torch.zeros(L, S, dtype=torch.int64, device=dev)
    count = torch.zeros(S, dtype=torch.int64, device=dev)
    for i in range(L - 1, -1, -1):
        s = sym[i].long()
        f = freq[s]
        c = cdf[s]
        emit = x >= ((RANS_L >> PROB_BITS) << 16) * f
        emitted[count.clamp(max=L - 1), lanes] = torch.where(emit, x & 0xFFFF, emitted[count.clamp(max=L - 1), lanes])
        count += emit.long()
        x = torch.where(emit, x >> 16, x)
        x = (x // f) * (1 << PROB_BITS) + x % f + c
    W = max(int(count.max()), 1)
    k = count[None, :] - 1 - torch.arange(W, device=dev)[:, None]
    words = torch.where(k >= 0, emitted.gather(0, k.clamp(min=0)), torch.zeros_like(k))
    words = torch.where(words >= 1 << 15, words - (1 << 16), words).to(torch.int16)
    return x, words


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """(states int64 [S], words int16 [W, S] (16-bit words, two's-complement stored), freq int32 [256],
    cdf int32 [257], L): the encoded exponent bytes of bf16 activations."""
    s = META["sizes"][size]
    g = torch.Generator(device=device).manual_seed(seed)
    S, L = s["S"], s["L"]
    scale = torch.exp(torch.randn(1, S, generator=g, device=device))
    vals = (torch.randn(L, S, generator=g, device=device) * scale).to(torch.bfloat16)
    sym = ((vals.view(torch.int16).to(torch.int32) >> 7) & 0xFF).to(torch.uint8)
    freq = _freq_table(sym)
    cdf = torch.zeros(NUM_SYMBOLS + 1, dtype=torch.int64, device=device)
    cdf[1:] = torch.cumsum(freq, 0)
    states, words = _encode(sym, freq, cdf)
    return states, words, freq.to(torch.int32), cdf.to(torch.int32), L


def reference(states: torch.Tensor, words: torch.Tensor, freq: torch.Tensor, cdf: torch.Tensor,
              L: int) -> torch.Tensor:
    S = states.shape[0]
    lanes = torch.arange(S, device=states.device)
    x = states.clone()
    pos = torch.zeros(S, dtype=torch.int64, device=states.device)
    w16 = words.long() & 0xFFFF
    f64, c64 = freq.long(), cdf.long()
    out = torch.empty(L, S, dtype=torch.uint8, device=states.device)
    for i in range(L):
        slot = x & ((1 << PROB_BITS) - 1)
        s = torch.searchsorted(c64, slot, right=True) - 1
        out[i] = s.to(torch.uint8)
        x = f64[s] * (x >> PROB_BITS) + slot - c64[s]
        need = x < RANS_L
        w = w16[pos.clamp(max=words.shape[0] - 1), lanes]
        x = torch.where(need, (x << 16) | w, x)
        pos += need.long()
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["S"] * s["L"]
    return {"bytes": n + n // 2 + 8 * s["S"], "flops": 12 * n}
