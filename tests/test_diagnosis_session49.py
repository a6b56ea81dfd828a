"""Session 49: the fields of packed records whose width a constexpr names (`p + offs * NREC`)
are read as record fields on Ascend, as a literal width already was."""

from __future__ import annotations

from diagnose.triage import triage

AOS = '''
import torch, triton, triton.language as tl

@triton.jit
def advance(state, out, n, NREC: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    rec = state + offs * NREC
    x = tl.load(rec + 0, mask=m, other=0.0)
    u = tl.load(rec + 1, mask=m, other=0.0)
    w = tl.load(rec + 2, mask=m, other=0.0)
    tl.store(out + offs, x + u * w, mask=m)

def run(state):
    n = state.shape[0]
    out = torch.empty(n, dtype=state.dtype)
    advance[(triton.cdiv(n, 1024),)](state, out, n, NREC=WIDTH, BLOCK=1024)
    return out
'''


def _field_findings(width: int) -> list:
    source = AOS.replace("WIDTH", str(width))
    return [f for f in triage(source, "advance.py", "ascend").findings
            if f.card_id == "ascend-interleaved-fields"]


def test_record_fields_at_a_constexpr_width_are_one_contiguous_run():
    found = _field_findings(8)
    assert found, "three fields of 8-wide records, one stride-8 load each, were not read as record fields"
    assert found[0].rewrite_family == "load-contiguous-transpose-on-chip"
    assert "8-wide records" in found[0].message


def test_a_constexpr_stride_past_a_records_width_is_a_matrix_column_not_fields():
    assert _field_findings(256) == []
