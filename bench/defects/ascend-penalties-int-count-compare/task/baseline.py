"""Repetition / frequency / presence penalties for triton-ascend, all seen-tests in fp32."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 48


@triton.jit
def _seen_masks(prompt_cnt, output_cnt):
    pc = prompt_cnt.to(tl.float32)
    oc = output_cnt.to(tl.float32)
    return (pc + oc) > 0.0, oc > 0.0, oc


@triton.jit
def penalties_kernel(logits_ptr, pc_ptr, oc_ptr, rep_ptr, freq_ptr, pres_ptr, out_ptr,
                     vocab, n_tiles, tiles_per_row, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    for tile in range(pid, n_tiles, tl.num_programs(0)):
        row = tile // tiles_per_row
        cols = (tile - row * tiles_per_row) * BLOCK + tl.arange(0, BLOCK)
        in_row = cols < vocab
        base = row * vocab
        x = tl.load(logits_ptr + base + cols, mask=in_row, other=0.0)
        pcnt = tl.load(pc_ptr + base + cols, mask=in_row, other=0)
        ocnt = tl.load(oc_ptr + base + cols, mask=in_row, other=0)
        rep = tl.load(rep_ptr + row)
        freq = tl.load(freq_ptr + row)
        pres = tl.load(pres_ptr + row)
        seen, out_seen, oc = _seen_masks(pcnt, ocnt)
        penal = tl.where(x > 0.0, x / rep, x * rep)
        x = tl.where(seen, penal, x)
        x = x - freq * oc
        x = x - tl.where(out_seen, pres, 0.0)
        tl.store(out_ptr + base + cols, x, mask=in_row)


def run(logits, prompt_counts, output_counts, repetition, frequency, presence):
    B, V = logits.shape
    out = torch.empty_like(logits)
    block = 4096
    tiles_per_row = triton.cdiv(V, block)
    n_tiles = B * tiles_per_row
    grid = (min(NUM_VECTOR_CORES, n_tiles),)
    penalties_kernel[grid](logits, prompt_counts, output_counts, repetition, frequency, presence, out,
                           V, n_tiles, tiles_per_row, BLOCK=block)
    return out
