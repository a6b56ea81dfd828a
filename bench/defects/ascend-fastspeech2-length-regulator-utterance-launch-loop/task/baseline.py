"""FastSpeech2 length regulator: repeat each phoneme row dur times along the frame axis, zero-pad to max_len."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40  # Atlas A2 (910B): 20 AI cores x 2 AIV


@triton.jit
def _length_regulate(x, dur, out, n_utt, T, D, max_len, n_chunks,
                     CHUNK: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    tok = tl.arange(0, BLOCK_T)
    rr = tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_D)
    col_ok = cols < D
    blank = tl.zeros((BLOCK_R, BLOCK_D), dtype=out.dtype.element_ty)
    for item in range(pid, n_utt * n_chunks, nprog):
        b = item // n_chunks
        ch = item % n_chunks
        j0 = ch * CHUNK
        d_row = dur + b * T
        x_row = x + b * T * D
        o_row = out + b * max_len * D
        start = tl.sum(tl.load(d_row + tok, mask=tok < j0, other=0), axis=0)
        for j in range(j0, tl.minimum(j0 + CHUNK, T)):
            n = tl.load(d_row + j)
            v = tl.load(x_row + j * D + cols, mask=col_ok, other=0.0)
            rows_v = tl.broadcast_to(v[None, :], (BLOCK_R, BLOCK_D))
            for r0 in range(0, n, BLOCK_R):
                r = r0 + rr
                tl.store(o_row + (start + r)[:, None] * D + cols[None, :], rows_v,
                         mask=(r < n)[:, None] & col_ok[None, :])
            start += n
        if ch == n_chunks - 1:
            for f0 in range(start, max_len, BLOCK_R):
                f = f0 + rr
                tl.store(o_row + f[:, None] * D + cols[None, :], blank,
                         mask=(f < max_len)[:, None] & col_ok[None, :])


def run(x: torch.Tensor, dur: torch.Tensor, max_len: int) -> torch.Tensor:
    B, T, D = x.shape
    out = torch.empty((B, max_len, D), device=x.device, dtype=x.dtype)
    CHUNK = 32
    n_chunks = triton.cdiv(T, CHUNK)
    grid = (min(B * n_chunks, NUM_VECTOR_CORES),)
    _length_regulate[grid](x, dur, out, B, T, D, max_len, n_chunks, CHUNK=CHUNK,
                           BLOCK_T=triton.next_power_of_2(T), BLOCK_R=16, BLOCK_D=triton.next_power_of_2(D))
    return out
