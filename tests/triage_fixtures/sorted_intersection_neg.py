# backend: cuda
# absent: common-linear-table-scan
import triton
import triton.language as tl


@triton.jit
def label_counts(labels, classes, out, N, C, BLOCK: tl.constexpr, CB: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    lab = tl.load(labels + rows, mask=rows < N, other=-1)
    for c0 in range(0, C, CB):
        cs = c0 + tl.arange(0, CB)
        cls = tl.load(classes + cs, mask=cs < C, other=-2)
        hits = tl.zeros([BLOCK, CB], dtype=tl.int32)
        hits += (lab[:, None] == cls[None, :]).to(tl.int32)
        tl.store(out + tl.program_id(0) * C + cs, tl.sum(hits, axis=0), mask=cs < C)


def run(labels, classes, out):
    label_counts[(triton.cdiv(labels.numel(), 256),)](labels, classes, out, labels.numel(), classes.numel(),
                                                      BLOCK=256, CB=64)
