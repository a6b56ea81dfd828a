"""CTC greedy (best-path) decoding: per frame argmax over the vocabulary, then within each utterance's
valid frames merge consecutive repeats and drop the blank (id 0). Inputs log_probs [B, T, V] fp32 and
lengths [B] int32; outputs tokens [B, T] int32 (decoded ids left-aligned, -1 after the end) and the
decoded lengths [B] int32."""
import torch

META = {
    "name": "ctc_greedy_decode",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 5, "T": 300, "V": 32},
        "ragged": {"B": 13, "T": 777, "V": 32},
        "large": {"B": 256, "T": 1499, "V": 32},
    },
    "baseline_notes": "Two launches on 40 programs (Atlas A2 vector cores): argmax over [64 frames, V] tiles into an "
                      "int32 id buffer, then per utterance 256-frame chunks: keep mask from the ids and the ids "
                      "shifted by one frame, tl.cumsum for the output slots plus a running count, masked scatter "
                      "store, -1 fill of the tail.",
    "deterministic": True,
}

BLANK = 0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """log_probs [B, T, V]: log_softmax of logits where the blank dominates most frames and tokens
    persist for a few frames (as a CTC head emits); lengths [B] between T/2 and T."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    B, T, V = s["B"], s["T"], s["V"]
    logits = torch.randn(B, T, V, generator=g)
    hold = torch.randint(1, V, (B, (T + 3) // 4), generator=g).repeat_interleave(4, dim=1)[:, :T]
    speak = torch.rand(B, T, generator=g) < 0.45
    logits.scatter_add_(2, hold.unsqueeze(2), 6.0 * speak.unsqueeze(2).float())
    logits[:, :, BLANK] += 4.0 * (~speak).float()
    log_probs = torch.log_softmax(logits, dim=2).to(getattr(torch, dtype or META["dtypes"][0]))
    lengths = torch.randint(T // 2, T + 1, (B,), generator=g, dtype=torch.int32)
    lengths[0] = T
    return log_probs.contiguous().to(device), lengths.to(device)


def reference(log_probs: torch.Tensor, lengths: torch.Tensor) -> tuple:
    ids = log_probs.argmax(dim=2).cpu()
    B, T = ids.shape
    tokens = torch.full((B, T), -1, dtype=torch.int32)
    out_len = torch.zeros(B, dtype=torch.int32)
    for b in range(B):
        seq = torch.unique_consecutive(ids[b, : int(lengths[b])])
        seq = seq[seq != BLANK]
        tokens[b, : seq.numel()] = seq.to(torch.int32)
        out_len[b] = seq.numel()
    return tokens.to(log_probs.device), out_len.to(log_probs.device)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["B"] * s["T"] * s["V"] + 4 * s["B"] * s["T"] * 3 + 8 * s["B"],
            "flops": s["B"] * s["T"] * (s["V"] + 4)}
