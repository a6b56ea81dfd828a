"""Classes from session 15's development misses: a grid that fills most of an NPU's cores is a
weak hypothesis (one program per core: the idle share bounds the gain), and a kernel with a
tl.dot fills the cube cores; an atomic every loop step at one address is aggregated first (max
and min atomics are reductions too); a dot on widened 16-bit tiles is an Ascend IR symptom."""

from __future__ import annotations

from diagnose.ir import attribute
from diagnose.ir.model import IRCapture, KernelIR, Specialization, Stage
from diagnose.ir.signature import signature_of
from diagnose.ir.tier import tier3_result
from diagnose.triage import triage

# Each program strides over the rows; the grid is a module constant (the core count it assumes).
STRIDED_ROWS = '''
import torch, triton, triton.language as tl

CORES = {cores}


@triton.jit
def rows(x_ptr, out_ptr, n_rows, N, PROGS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    for r in range(pid, n_rows, PROGS):
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for start in range(0, N, BLOCK):
            offs = start + tl.arange(0, BLOCK)
            acc += tl.load(x_ptr + r * N + offs, mask=offs < N, other=0.0)
        tl.store(out_ptr + r, tl.sum(acc, axis=0))


def run(x):
    out = torch.empty(x.shape[0], device=x.device)
    rows[(CORES,)](x, out, x.shape[0], x.shape[1], PROGS=CORES, BLOCK=1024)
    return out
'''


def _grid_confidence(cores: int, backend: str) -> float | None:
    card = f"{backend}-small-grid-underfill"
    found = [f for f in triage(STRIDED_ROWS.format(cores=cores), "k.py", backend).findings
             if f.card_id == card]
    return found[0].confidence if found else None


def test_an_npu_grid_near_the_core_count_is_a_weak_hypothesis() -> None:
    near = _grid_confidence(36, "ascend")  # 36 of 48 vector cores: 1.33x at most
    half = _grid_confidence(24, "ascend")  # half of them idle: 2x at most
    few = _grid_confidence(8, "ascend")
    assert near is not None and half is not None and few is not None
    assert near <= 0.35 < half <= few
    assert _grid_confidence(48, "ascend") is None  # every core busy: no finding
    # 40 fills the smallest Atlas A2 part (910B3/B4: 40 vector cores): no finding (session 21)
    assert _grid_confidence(40, "ascend") is None


def test_a_gpu_grid_below_the_sm_count_keeps_its_weight() -> None:
    # a GPU program's warps hide latency badly alone: more programs win beyond the idle share
    assert _grid_confidence(120, "cuda") == _grid_confidence(70, "cuda") >= 0.6


# A running max pushed into one scale word: every step of the loop (a), once after it (b), or
# every step at an address that moves with the step (c: a per-tile output, no repeated address).
ABSMAX = '''
import torch, triton, triton.language as tl


@triton.jit
def absmax(x_ptr, scale_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid * BLOCK, n, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
{body}


def run(x):
    scale = torch.zeros(x.numel() // 1024 + 1, device=x.device)
    absmax[(32,)](x, scale, x.numel(), BLOCK=1024)
    return scale
'''
PER_STEP = "        tl.atomic_max(scale_ptr, tl.max(tl.abs(x), axis=0))"
AFTER = "        acc = tl.maximum(acc, tl.abs(x))\n    tl.atomic_max(scale_ptr, tl.max(acc, axis=0))"
MOVING = "        tl.atomic_max(scale_ptr + start // BLOCK, tl.max(tl.abs(x), axis=0))"


def _atomic_cards(body: str, backend: str) -> dict[str, float]:
    found = triage(ABSMAX.format(body=body), "k.py", backend).findings
    return {f.card_id: f.confidence for f in found if "atomic" in f.card_id}


def test_an_atomic_max_every_loop_step_at_one_address_is_aggregated_first() -> None:
    for backend in ("cuda", "ascend"):
        per_step = triage(ABSMAX.format(body=PER_STEP), "k.py", backend).findings
        card = next(f for f in per_step if f.card_id == "common-atomic-per-step")
        assert card.rewrite_family == "aggregate-before-atomics" and card.confidence >= 0.7
        assert "atomic_max" in card.message and card.evidence["facts"]["loop"] == "start"
    # once per program after the loop: a reduction across programs (max and min count too)
    assert set(_atomic_cards(AFTER, "cuda")) == {"cuda-atomic-reduction"}
    # an address that moves with the step repeats nothing within the program
    assert "common-atomic-per-step" not in _atomic_cards(MOVING, "cuda")


# Attention on the cube unit with its bf16 tiles widened first (the TTIR the Ascend capture of a
# real kernel gave, trimmed), and the same dots on the tiles as loaded.
UPCAST_TTIR = """
    %q_28 = arith.extf %q_27 : tensor<128x128xbf16> to tensor<128x128xf32> loc(#loc122)
    %k_43 = arith.extf %k_42 : tensor<128x128xbf16> to tensor<128x128xf32> loc(#loc135)
    %s = tt.trans %k_43 {order = array<i32: 1, 0>} : tensor<128x128xf32> -> tensor<128x128xf32> loc(#loc140)
    %s_49 = tt.dot %q_28, %s, %cst_3, inputPrecision = tf32 : tensor<128x128xf32> * tensor<128x128xf32> -> tensor<128x128xf32> loc(#loc141)
"""
NATIVE_TTIR = """
    %s = tt.trans %k_42 {order = array<i32: 1, 0>} : tensor<128x128xbf16> -> tensor<128x128xbf16> loc(#loc140)
    %s_49 = tt.dot %q_27, %s, %cst_3, inputPrecision = tf32 : tensor<128x128xbf16> * tensor<128x128xbf16> -> tensor<128x128xf32> loc(#loc141)
"""


def _ascend_ttir(text: str) -> IRCapture:
    stages = [Stage(0, "ttir", "make_ttir", "final", text)]
    kir = KernelIR("k", "k.py", 3, Specialization({}, {}, {}, {}), stages)
    kir.signatures = [signature_of(s) for s in stages]
    return IRCapture("ascend", "Ascend910B", "k.py", kernels=[kir])


def test_a_dot_on_widened_16_bit_tiles_is_an_ascend_ir_symptom_naming_the_fp32_dot_card() -> None:
    found = {s.id: s for s in attribute(_ascend_ttir(UPCAST_TTIR))}
    assert "%s_49 = tt.dot" in found["upcast-dot"].evidence[0]
    assert "upcast-dot" not in {s.id for s in attribute(_ascend_ttir(NATIVE_TTIR))}
    result = tier3_result(_ascend_ttir(UPCAST_TTIR), [found["upcast-dot"]],
                          {"ascend-fp32-dot": "lower-precision-dot"})
    top = next(f for f in result.findings if f.evidence["symptom"] == "upcast-dot")
    assert top.card_id == "ascend-fp32-dot" and top.rewrite_family == "lower-precision-dot"


DOT_GRID = '''
import torch, triton, triton.language as tl


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, n_tiles, PROGS: tl.constexpr, B: tl.constexpr):
    r = tl.arange(0, B)
    for t in range(tl.program_id(0), n_tiles, PROGS):
        a = tl.load(a_ptr + t * B * B + r[:, None] * B + r[None, :])
        b = tl.load(b_ptr + r[:, None] * B + r[None, :])
        tl.store(c_ptr + t * B * B + r[:, None] * B + r[None, :], tl.dot(a, b))


def run(a, b):
    c = torch.empty_like(a)
    mm[(16,)](a, b, c, a.shape[0], PROGS=16, B=64)
    return c
'''


def test_an_npu_dot_kernel_is_weighed_against_the_cube_cores() -> None:
    grid = next(f for f in triage(DOT_GRID, "k.py", "ascend").findings
                if f.card_id == "ascend-small-grid-underfill")
    assert "16 programs for the 24 AI (cube) cores" in grid.message and grid.confidence <= 0.4
    assert _grid_confidence(16, "ascend") >= 0.6  # a vector kernel of 16 leaves 32 of 48 idle
    # 20 cube programs fill the smallest Atlas A2 part (20 AI cores): no finding (session 21)
    assert not [f for f in triage(DOT_GRID.replace("16", "20"), "k.py", "ascend").findings
                if f.card_id == "ascend-small-grid-underfill"]
