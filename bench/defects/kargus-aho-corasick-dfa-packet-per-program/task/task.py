"""Aho-Corasick multi-pattern matching of TCP payloads (Kargus / Gnort style, full-matrix DFA).

Frames are packed back to back in one byte buffer (offsets, lengths); every frame carries a
54-byte Ethernet + IPv4 + TCP header and the payload after it is run through the DFA:
state = delta[state, byte], and the per-state output count (patterns ending at that state,
fail-link outputs included) is added up. The result is the number of pattern hits per packet.
"""
import torch

HDR = 54

META = {
    "name": "ac_dfa_payload_match",
    "level": 2,
    "category": "string-matching",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 8, "PATTERNS": 12, "PMIN": 2, "PMAX": 4, "MAXPAY": 48, "ALPHA": 6},
        "ragged": {"N": 13, "PATTERNS": 21, "PMIN": 2, "PMAX": 5, "MAXPAY": 83, "ALPHA": 7},
        "large": {"N": 65536, "PATTERNS": 1500, "PMIN": 5, "PMAX": 16, "MAXPAY": 0, "ALPHA": 16},
    },
    "baseline_notes": "One lane per packet: programs of 32 packets (one warp) walk their packets' payloads "
                      "in lock step up to the longest payload of the block, a masked byte load, a "
                      "delta-table gather and an output-count gather per step; no autotune.",
    "deterministic": True,
}


def _build_dfa(patterns):
    goto, own = [dict()], [0]
    for p in patterns:
        s = 0
        for c in p:
            nxt = goto[s].get(c)
            if nxt is None:
                nxt = len(goto)
                goto.append({})
                own.append(0)
                goto[s][c] = nxt
            s = nxt
        own[s] += 1
    S = len(goto)
    delta = torch.zeros(S, 256, dtype=torch.int32)
    fail, out = [0] * S, list(own)
    queue = []
    for c, t in goto[0].items():
        delta[0, c] = t
        queue.append(t)
    head = 0
    while head < len(queue):
        s = queue[head]
        head += 1
        delta[s] = delta[fail[s]]
        for c, t in goto[s].items():
            f = int(delta[fail[s], c])
            fail[t] = f
            out[t] += out[f]
            queue.append(t)
        for c, t in goto[s].items():
            delta[s, c] = t
    return delta, torch.tensor(out, dtype=torch.int32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """data [total] uint8 (packed frames), offsets [N] int32, lengths [N] int32,
    delta [S, 256] int32 (DFA transitions), out [S] int32 (hits per state)."""
    s = META["sizes"][size]
    N, A = s["N"], s["ALPHA"]
    g = torch.Generator().manual_seed(seed)
    alphabet = torch.arange(ord("a"), ord("a") + A)
    plen = torch.randint(s["PMIN"], s["PMAX"] + 1, (s["PATTERNS"],), generator=g)
    patterns = [bytes(alphabet[torch.randint(0, A, (int(k),), generator=g)].tolist()) for k in plen]
    delta, out = _build_dfa(patterns)
    if s["MAXPAY"]:
        pay = torch.randint(0, s["MAXPAY"] + 1, (N,), generator=g)
    else:  # simple IMIX 7:4:1 of 64 / 594 / 1518-byte frames
        pick = torch.randint(0, 12, (N,), generator=g)
        pay = torch.where(pick < 7, 64, torch.where(pick < 11, 594, 1518)) - HDR
    lengths = pay + HDR
    offsets = torch.cumsum(lengths, 0) - lengths
    data = torch.randint(0, 256, (int(lengths.sum()),), generator=g, dtype=torch.uint8)
    payload = torch.arange(data.numel()) - torch.repeat_interleave(offsets, lengths) >= HDR
    data[payload] = alphabet[torch.randint(0, A, (int(payload.sum()),), generator=g)].to(torch.uint8)
    for q in torch.randint(0, N, (max(N // 4, 2),), generator=g).tolist():
        p = patterns[int(torch.randint(0, len(patterns), (1,), generator=g))]
        if int(pay[q]) >= len(p):
            at = int(offsets[q]) + HDR + int(torch.randint(0, int(pay[q]) - len(p) + 1, (1,), generator=g))
            data[at:at + len(p)] = torch.tensor(list(p), dtype=torch.uint8)
    return (data.to(device), offsets.to(torch.int32).to(device), lengths.to(torch.int32).to(device),
            delta.to(device), out.to(device))


def reference(data, offsets, lengths, delta, out) -> torch.Tensor:
    n = (lengths.long() - HDR).clamp(min=0)
    base = offsets.long() + HDR
    state = torch.zeros_like(n)
    hits = torch.zeros_like(n)
    for i in range(int(n.max()) if n.numel() else 0):
        act = i < n
        c = data[torch.where(act, base + i, 0)].long()
        state = torch.where(act, delta[state, c].long(), state)
        hits += torch.where(act, out[state].long(), 0)
    return hits.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pay = s["MAXPAY"] / 2 if s["MAXPAY"] else (7 * 10 + 4 * 540 + 1464) / 12
    return {"bytes": int(s["N"] * (pay * 9 + 12)), "flops": int(s["N"] * pay)}
