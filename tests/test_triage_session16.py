"""Classes from session 16's development misses: IEEE-rounded division and square root in a
pair loop (named at tier 1 from tl.div_rn / tl.sqrt_rn, seen at tier 3 as tt.precise_divf /
tt.precise_sqrt in the sm_90 TTGIR); a loop's prefix re-read inside one program; a value kept in
GM across a loop on the NPU; a loop-invariant scale applied to a dot operand every K step."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from diagnose.consistency import problems
from diagnose.ladder import Options, diagnose, make_context
from diagnose.target import resolve_target
from diagnose.triage import triage

KERNEL = '''
import torch
import triton
import triton.language as tl


@triton.jit
def _pair(q, r2):
    return {pair}


@triton.jit
def potential_kernel(p_ptr, a_ptr, q_ptr, out_ptr, n_atoms, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(p_ptr + i)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for j in range(n_atoms):
        d = x - tl.load(a_ptr + j)
        acc += _pair(tl.load(q_ptr + j), d * d + 1e-3)
    tl.store(out_ptr + i, acc)


def run(p, a, q):
    out = torch.empty_like(p)
    potential_kernel[(triton.cdiv(p.numel(), 256),)](p, a, q, out, a.numel(), BLOCK=256)
    return out
'''
PRECISE = KERNEL.format(pair="tl.div_rn(q, tl.sqrt_rn(r2))")
APPROX = KERNEL.format(pair="q * tl.math.rsqrt(r2)")

TASK = '''
import torch

META = {"sizes": {"small": {"n": 65536, "m": 64}, "large": {"n": 65536, "m": 64}}, "dtypes": ["float32"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    s = META["sizes"][size]
    return tuple(torch.rand(k, generator=g).to(device) for k in (s["n"], s["m"], s["m"]))


def reference(p, a, q):
    d = p[:, None] - a[None, :]
    return (q[None, :] / torch.sqrt(d * d + 1e-3)).sum(1)
'''
CARD, FAMILY = "cuda-ieee-rounded-math", "lower-precision-math"


def _cards(source: str, backend: str = "cuda") -> dict[str, object]:
    return {f.card_id: f for f in triage(source, "k.py", backend).findings}


def test_ieee_rounded_math_in_a_loop_is_named_and_the_approximate_form_is_not() -> None:
    found = _cards(PRECISE)[CARD]
    assert found.rewrite_family == FAMILY and found.confidence >= 0.7  # type: ignore[attr-defined]
    assert "div_rn" in found.message and "sqrt_rn" in found.message  # type: ignore[attr-defined]
    assert CARD not in _cards(APPROX)
    # outside any loop an elementwise div_rn is a weak hypothesis: memory is the cost there
    flat = PRECISE.replace("    for j in range(n_atoms):\n        d = x - tl.load(a_ptr + j)\n        acc +=",
                           "    d = x - tl.load(a_ptr)\n    acc +=")
    assert _cards(flat)[CARD].confidence < 0.5  # type: ignore[attr-defined]


@pytest.mark.slow
def test_tier3_sees_precise_divf_and_sqrt_in_the_sm90_ir_and_concludes(tmp_path: Path) -> None:
    (tmp_path / "task.py").write_text(textwrap.dedent(TASK))
    (tmp_path / "slow.py").write_text(PRECISE)
    d = diagnose(make_context(resolve_target(str(tmp_path), str(tmp_path / "slow.py")), "cuda",
                              Options(max_tier=3, size="small"), open_kb=None))
    assert d.verdict == "concluded" and (d.conclusion.rewrite_family, d.conclusion.card_id) == (FAMILY, CARD)
    fact = next(f for t in d.tiers if t.tier == 3 for f in t.findings
                if f.evidence.get("symptom") == "precise-math")
    assert "divf" in fact.message and "sqrt" in fact.message
    assert not problems(d.to_dict())
    (tmp_path / "slow.py").write_text(APPROX)
    d = diagnose(make_context(resolve_target(str(tmp_path), str(tmp_path / "slow.py")), "cuda",
                              Options(max_tier=3, size="small"), open_kb=None))
    assert not any(f.evidence.get("symptom") == "precise-math" for t in d.tiers if t.tier == 3
                   for f in t.findings)


RESCAN = '''
import torch, triton, triton.language as tl


@triton.jit
def ranks(flags_ptr, out_ptr, T, BLOCK: tl.constexpr):
    row = flags_ptr + tl.program_id(0) * T
    for t0 in range(0, T, BLOCK):
        before = tl.zeros([BLOCK], dtype=tl.int32)
        for p0 in range(0, t0, BLOCK):
            prev = p0 + tl.arange(0, BLOCK)
            before += tl.load(row + prev, mask=prev < T, other=0)
        offs = t0 + tl.arange(0, BLOCK)
        m = tl.load(row + offs, mask=offs < T, other=0)
        tl.store(out_ptr + offs, tl.sum(before, axis=0) + tl.cumsum(m, axis=0), mask=offs < T)


def run(flags):
    out = torch.empty_like(flags)
    ranks[(flags.shape[0],)](flags, out, flags.shape[1], BLOCK=1024)
    return out
'''


def test_a_loop_bounded_by_its_enclosing_loop_rereads_the_earlier_blocks() -> None:
    found = _cards(RESCAN, "ascend")["common-prefix-rescan"]
    assert found.rewrite_family == "carry-running-prefix"  # type: ignore[attr-defined]
    assert "enclosing loop's `t0`" in found.message  # type: ignore[attr-defined]
    assert "common-prefix-rescan" in _cards(RESCAN, "cuda")


STATE = '''
import torch, triton, triton.language as tl


@triton.jit
def decay(x_ptr, state_ptr, T, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
{body}


def run(x, state):
    decay[(x.shape[1] // 1024,)](x, state, x.shape[0], x.shape[1], BLOCK=1024)
    return state
'''
IN_GM = """    for t in range(T):
        h = tl.load(state_ptr + offs)
        tl.store(state_ptr + offs, 0.9 * h + tl.load(x_ptr + t * N + offs))"""
ON_CHIP = """    h = tl.load(state_ptr + offs)
    for t in range(T):
        h = 0.9 * h + tl.load(x_ptr + t * N + offs)
    tl.store(state_ptr + offs, h)"""


def test_a_state_kept_in_gm_across_the_loop_is_an_accumulator_on_both_backends() -> None:
    npu = _cards(STATE.format(body=IN_GM), "ascend")
    assert npu["ascend-global-accumulator"].rewrite_family == "keep-accumulator-in-registers"  # type: ignore[attr-defined]
    assert "common-loop-invariant-work" not in npu  # the load reads what the last step stored
    assert "cuda-global-accumulator" in _cards(STATE.format(body=IN_GM), "cuda")
    assert not {"ascend-global-accumulator", "common-loop-invariant-work"} & set(
        _cards(STATE.format(body=ON_CHIP), "ascend"))
