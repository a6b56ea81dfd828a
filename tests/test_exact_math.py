"""Accurate libdevice math per element beyond erf: libdevice.pow and libdevice.tanh in an
elementwise kernel are named at tier 1 from the source and seen at tier 3 in the sm_90 TTGIR as
tt.extern_elementwise calls; a user's own tanh helper and a GEMM epilogue are left alone."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from diagnose.consistency import problems
from diagnose.ladder import Options, diagnose, make_context
from diagnose.target import resolve_target
from diagnose.triage import triage

FAMILY, CARD = "precision-matched-math", "cuda-exact-erf-elementwise"

KERNEL = '''
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def tanh(x):
    return 2.0 * tl.sigmoid(2.0 * x) - 1.0


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    inner = 0.7978845608028654 * (x + 0.044715 * {cube})
    y = 0.5 * x * (1.0 + {tanh}(inner))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=m)


def run(x):
    y = torch.empty_like(x)
    gelu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    return y
'''
LIBDEVICE = KERNEL.format(cube="libdevice.pow(x, 3.0)", tanh="libdevice.tanh")
OWN = KERNEL.format(cube="x * x * x", tanh="tanh")

TASK = '''
import torch

META = {"sizes": {"small": {"n": 4096}, "large": {"n": 4096}}, "dtypes": ["float16"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(META["sizes"][size]["n"], generator=g).to(torch.float16).to(device),)


def reference(x):
    return torch.nn.functional.gelu(x.float(), approximate="tanh").to(x.dtype)
'''


def _cards(source: str) -> dict[str, float]:
    return {f.card_id: f.confidence for f in triage(source, "k.py", "cuda").findings}


def test_libdevice_pow_and_tanh_are_named_and_an_own_tanh_helper_is_not() -> None:
    assert _cards(LIBDEVICE).get(CARD, 0) >= 0.65
    assert CARD not in _cards(OWN)
    with_dot = LIBDEVICE.replace("    tl.store(", "    y = y + tl.sum(tl.dot(tl.zeros([16, 16], tl.float16), "
                                               "tl.zeros([16, 16], tl.float16)))\n    tl.store(", 1)
    assert CARD not in _cards(with_dot)


@pytest.mark.slow
def test_tier3_sees_the_libdevice_calls_in_the_sm90_ir_and_concludes(tmp_path: Path) -> None:
    (tmp_path / "task.py").write_text(textwrap.dedent(TASK))
    (tmp_path / "slow.py").write_text(LIBDEVICE)
    d = diagnose(make_context(resolve_target(str(tmp_path), str(tmp_path / "slow.py")), "cuda",
                              Options(max_tier=3, size="small"), open_kb=None))
    assert d.verdict == "concluded" and (d.conclusion.rewrite_family, d.conclusion.card_id) == (FAMILY, CARD)
    fact = next(f for t in d.tiers if t.tier == 3 for f in t.findings
                if f.evidence.get("symptom") == "exact-erf")
    assert "pow" in fact.message and "tanh" in fact.message
    assert not problems(d.to_dict())
