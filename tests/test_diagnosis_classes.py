"""The diagnosis failure classes of issue 12, each pinned on small real inputs: launch values
the host code computes, launch configuration tier 2 can conclude, tier-4 answers that miss the
cost, effects that yield to causes, Ascend linalg symptoms and the launcher's host cost."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from diagnose.evidence import Finding, TierResult
from diagnose.ir import attribute
from diagnose.ir.model import IRCapture, KernelIR, Specialization, Stage, Symptom
from diagnose.ir.signature import signature_of
from diagnose.ir.tier import tier3_result
from diagnose.ladder import Options, _questions, answer_misses_the_cost, decide, make_context
from diagnose.profiling import load_json, profile_tier
from diagnose.target import resolve_target
from diagnose.triage import load_cards, triage

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "profile_fixtures"
KERNEL = ROOT / "bench" / "defects" / "gemm-fp32-ieee-dot" / "slow.py"
FAMILIES = {c.id: c.rewrite_family for c in load_cards()}

ROW_KERNEL = '''
import triton
import triton.language as tl


@triton.jit
def row_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * N + cols, mask=cols < N)
    tl.store(out_ptr + tl.program_id(0) * N + cols, x * 2.0, mask=cols < N)

'''


def _cards(launcher: str, resolved: dict | None = None) -> dict[str, Finding]:
    source = ROW_KERNEL + textwrap.dedent(launcher)
    return {f.card_id: f for f in triage(source, "k.py", "cuda", resolved=resolved).findings}


def test_num_warps_through_a_local_variable_is_seen() -> None:
    found = _cards('''
        def run(x, out):
            M, N = x.shape
            warps = 1
            row_kernel[(M,)](x, out, N, BLOCK=triton.next_power_of_2(N), num_warps=warps)
        ''')
    assert found["cuda-too-few-warps"].evidence["facts"]["num_warps"] == 1


def test_launch_values_flow_through_tuples_dict_splats_and_helper_parameters() -> None:
    found = _cards('''
        def _launch(x, out, n, block, warps):
            cfg = dict(num_warps=warps)
            row_kernel[(4096,)](x, out, n, BLOCK=block, **cfg)

        def run(x, out):
            small, warps = 64, 4
            _launch(x, out, x.shape[1], small, warps)
        ''')
    block = found["common-block-size"]
    assert block.evidence["facts"]["tile_elements"] == 64
    # 4 warps (128 threads) on a 64-element tile: the warps are wasted too
    assert found["cuda-num-warps-exceed-tile"].evidence["facts"]["num_warps"] == 4


def test_conditional_launch_value_resolves_when_its_test_is_known() -> None:
    found = _cards('''
        def run(x, out):
            n = 8192
            warps = 1 if n > 4096 else 8
            row_kernel[(64,)](x, out, n, BLOCK=8192, num_warps=warps)
        ''')
    assert found["cuda-too-few-warps"].evidence["facts"]["num_warps"] == 1


def test_values_the_capture_resolved_reach_the_detectors() -> None:
    launcher = '''
        def run(x, out):
            M, N = x.shape
            row_kernel[(M,)](x, out, N, BLOCK=triton.next_power_of_2(N))
        '''
    assert "cuda-small-grid-underfill" not in _cards(launcher)
    # the capture saw 16 programs; the kernel has no loop, so it is a small problem, not a
    # small grid: still nothing
    assert "cuda-small-grid-underfill" not in _cards(launcher, {"row_kernel": {"programs": 16}})


def test_small_grid_of_looping_programs_is_a_hypothesis() -> None:
    source = ROW_KERNEL.replace(
        "    x = tl.load", "    for r in range(4):\n        pass\n    x = tl.load") + textwrap.dedent('''
        def run(x, out):
            M, N = x.shape
            row_kernel[(M // 256,)](x, out, N, BLOCK=1024)
        ''')
    plain = {f.card_id for f in triage(source, "k.py", "cuda").findings}
    resolved = {f.card_id: f for f in triage(source, "k.py", "cuda",
                                             resolved={"row_kernel": {"programs": 64}}).findings}
    assert "cuda-small-grid-underfill" not in plain
    assert resolved["cuda-small-grid-underfill"].evidence["facts"]["programs"] == 64


def _profile_with(tmp_path: Path, grid: str, block: str) -> TierResult:
    profile = json.loads((FIX / "profile_spills.json").read_text())
    kernel = profile["counters"]["kernels"][0]
    kernel.update(grid=grid, block=block, local_loads=0.0, local_stores=0.0,
                  registers_per_thread=40.0)
    kernel["raw"].update({"launch__registers_per_thread": "40",
                          "launch__occupancy_limit_registers": "16",
                          "smsp__sass_inst_executed_op_local_ld.sum": "0",
                          "smsp__sass_inst_executed_op_local_st.sum": "0"})
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(profile))
    return profile_tier(load_json(FIX / "bench_spills.json"), load_json(path), backend="cuda")


def test_tier2_concludes_one_warp_per_program_its_counters_explain(tmp_path: Path) -> None:
    result = _profile_with(tmp_path, "(4096, 1, 1)", "(32, 1, 1)")
    occupancy = next(f for f in result.findings if f.kind == "occupancy")
    assert occupancy.evidence["limiter"] == "warps"
    assert result.sufficient and result.families()[0] == "num-warps-tuning"


def test_tier2_concludes_a_grid_below_half_the_sms(tmp_path: Path) -> None:
    result = _profile_with(tmp_path, "(48, 1, 1)", "(256, 1, 1)")
    assert result.sufficient and result.families()[0] == "split-work-across-programs"


def test_small_grid_of_a_launch_inside_a_host_loop_is_the_loop(tmp_path: Path) -> None:
    """Too few programs per launch, measured, with the launcher looping over launches: the cause
    is the host loop (each launch gets one slice), so the conclusion is one launch over a grid."""
    launcher = """
    def run(x):
        out = torch.empty_like(x)
        for b in range(x.shape[0]):
            row_kernel[(48,)](x[b], out[b], x.shape[-1], BLOCK=1024)
        return out
    """
    source = ROW_KERNEL + "import torch\n" + textwrap.dedent(launcher)
    path = tmp_path / "k.py"
    path.write_text(source)
    ctx = make_context(resolve_target(str(path)), "cuda", Options())
    ctx.evidence = [triage(source, str(path), "cuda"), _profile_with(tmp_path, "(48, 1, 1)", "(256, 1, 1)")]
    assert "common-launch-loop" in {h.card_id for h in ctx.hypotheses()}
    decision = decide(ctx)
    assert decision.stop and decision.verdict == "concluded"
    assert decision.conclusion.rewrite_family == "one-launch-over-grid"
    # without the loop the same counters still conclude a small grid
    ctx.evidence[0] = TierResult(1, "pattern triage", [])
    assert decide(ctx).conclusion.rewrite_family == "split-work-across-programs"


def _symptom(symptom: str, family: str, weight: int, function: str = "k") -> Finding:
    return Finding(3, "ir-symptom", "", family, f"{symptom} in {function}", 0.9,
                   {"path": "k.py", "function": function, "line": None},
                   {"symptom": symptom, "explains_cards": [], "weight": weight},
                   passes=["some-pass"])


def test_effects_are_not_asked_about_when_their_kernel_shows_a_cause() -> None:
    asked = _questions([_symptom("convert-layout-survives", "", 2),
                        _symptom("scalar-global-loads", "", 2),
                        _symptom("convert-layout-survives", "", 2, function="other")])
    assert [(f.evidence["symptom"], f.location["function"]) for f in asked] == [
        ("scalar-global-loads", "k"), ("convert-layout-survives", "other")]


def test_tier4_answer_that_misses_the_measured_cost_does_not_conclude() -> None:
    ctx = make_context(resolve_target(str(KERNEL)), "cuda", Options())
    measured = Finding(2, "occupancy", "cuda-small-grid-underfill", "split-work-across-programs",
                       "48 programs for 132 SMs", 0.85, evidence={"hotspot": True})
    answer = Finding(4, "pass-source", "", "layout-friendly-shapes", "a layout answer", 0.8,
                     evidence={"symptom_asked": "convert-layout-survives"})
    ctx.evidence = [TierResult(1, "pattern triage", []), TierResult(2, "profiling", [measured]),
                    TierResult(3, "IR attribution", [_symptom("convert-layout-survives", "", 2)]),
                    TierResult(4, "compiler-source escalation", [answer], sufficient=True,
                               reason="a layout answer")]
    decision = answer_misses_the_cost(ctx)
    assert decision is not None and not decision.stop
    assert "does not explain the cost" in decision.reason
    assert answer.confidence == 0.4 and not ctx.evidence[-1].sufficient
    ctx.evidence[1].findings.clear()
    answer.confidence = 0.8
    assert answer_misses_the_cost(ctx) is None  # nothing measured elsewhere: it may conclude


LINALG = '''
module {
  func.func @k(%arg2: memref<?xf16>, %arg3: memref<?xi8>) {
    %reinterpret_cast = memref.reinterpret_cast %arg2 to offset: [0], sizes: [64, 32], strides: [1, %c64] : memref<?xf16> to memref<64x32xf16, strided<[1, ?]>>
    %19 = arith.cmpi ne, %18, %3 : tensor<4096xi8>
    %20 = arith.cmpi slt, %8, %9 : tensor<4096xi32>
    %21 = arith.andi %20, %19 : tensor<4096xi1>
    %24 = arith.select %21, %22, %23 : tensor<4096xi1>, tensor<4096xf16>
    return
  }
}
'''


def _ascend_kernel(text: str) -> KernelIR:
    stages = [Stage(0, "ttir", "make_ttir", "final", "module {}"),
              Stage(1, "TritonToLinalg", "triton-to-linalg", "after", text)]
    kir = KernelIR("k", "k.py", 3, Specialization({}, {}, {}, {}), stages)
    kir.signatures = [signature_of(s) for s in stages]
    return kir


def test_linalg_strided_views_and_integer_compares_feeding_selects_are_symptoms() -> None:
    capture = IRCapture("ascend", "Ascend910B", "k.py", kernels=[_ascend_kernel(LINALG)])
    found = {s.id: s for s in attribute(capture)}
    assert "strides: [1, %c64]" in found["strided-memref"].evidence[0]
    assert len(found["int-compare-select"].evidence) == 2
    clean = LINALG.replace("strides: [1, %c64]", "strides: [%c32, 1]").replace(
        "%24 = arith.select %21", "%24 = arith.addf %22")
    capture = IRCapture("ascend", "Ascend910B", "k.py", kernels=[_ascend_kernel(clean)])
    assert not {s.id for s in attribute(capture)} & {"strided-memref", "int-compare-select"}


def test_int64_compares_feeding_a_select_are_their_own_symptom_naming_int32() -> None:
    """Targets compared as loaded int64: the vector unit compares i32, so the i64 compare is
    its own symptom (int32-indexing, standalone at tier 3); one i32 compare among them keeps
    the generic integer-compare symptom."""
    wide = LINALG.replace("tensor<4096xi8>", "tensor<4096xi64>").replace(
        "%9 : tensor<4096xi32>", "%9 : tensor<4096xi64>")
    capture = IRCapture("ascend", "Ascend910B", "k.py", kernels=[_ascend_kernel(wide)])
    found = {s.id: s for s in attribute(capture)}
    assert "int-compare-select" not in found and len(found["int64-compare-select"].evidence) == 2
    result = tier3_result(capture, list(found.values()),
                          {"ascend-int64-vector-arith": "int32-indexing"})
    top = next(f for f in result.findings if f.evidence["symptom"] == "int64-compare-select")
    assert top.rewrite_family == "int32-indexing" and top.card_id == "ascend-int64-vector-arith"
    mixed = {s.id for s in attribute(IRCapture("ascend", "Ascend910B", "k.py",
                                               kernels=[_ascend_kernel(LINALG)]))}
    assert "int-compare-select" in mixed and "int64-compare-select" not in mixed


def test_host_code_around_the_launches_is_tier3_evidence() -> None:
    capture = IRCapture("cuda", "sm_90", "k.py", launch_counts={"ce_kernel": 8, "other": 1},
                        host_ops=[{"op": "aten._to_copy", "bytes": 64 << 20, "dtype": "float32",
                                   "from_dtype": "float16"},
                                  {"op": "aten.clone", "bytes": 32 << 20, "dtype": "float16",
                                   "from_dtype": "float16"}])
    result = tier3_result(capture, [], FAMILIES)
    by_card = {f.card_id: f for f in result.findings}
    counted = next(f for f in result.findings if f.evidence["symptom"] == "launch-count")
    # a loop of launches or separate launches of one kernel: the count confirms either
    assert "ce_kernel 8 times" in counted.message and not counted.rewrite_family
    assert counted.evidence["explains_cards"] == ["common-launch-loop", "common-unfused-launches"]
    assert "67.1 MB" in by_card["common-host-casts"].message
    assert by_card["common-host-copies"].rewrite_family == "drop-host-copies"
    # two heavy host findings: neither stands alone
    assert not result.sufficient


def test_host_copy_of_a_small_tensor_is_not_evidence() -> None:
    capture = IRCapture("cuda", "sm_90", "k.py",
                        host_ops=[{"op": "aten.clone", "bytes": 4096, "dtype": "float16",
                                   "from_dtype": "float16", "input_bytes": 64 << 20}])
    assert tier3_result(capture, [], FAMILIES).findings == []


def test_dot_tiles_below_a_warp_group_row_count_are_a_block_size_hypothesis() -> None:
    source = textwrap.dedent('''
        import triton
        import triton.language as tl


        @triton.jit
        def mm(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
            rm = tl.arange(0, BM)
            rn = tl.arange(0, BN)
            rk = tl.arange(0, BK)
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for k in range(0, K, BK):
                a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
                b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
                acc = tl.dot(a, b, acc)
            tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


        def run(a, b, c):
            bm, bn, bk = 32, 128, 64
            mm[(1,)](a, b, c, a.shape[1], BM=bm, BN=bn, BK=bk)
        ''')
    found = {f.card_id: f for f in triage(source, "k.py", "cuda").findings}
    assert found["common-block-size"].evidence["facts"]["dot_rows"] == 32
    wide = source.replace("bm, bn, bk = 32", "bm, bn, bk = 128")
    assert "common-block-size" not in {f.card_id for f in triage(wide, "k.py", "cuda").findings}


def test_capture_cache_reuses_a_capture_until_the_kernel_changes(tmp_path, monkeypatch) -> None:
    from diagnose.ir.cache import cached

    kernel = tmp_path / "k.py"
    kernel.write_text("x = 1\n")
    calls: list[int] = []

    def capture() -> IRCapture:
        calls.append(1)
        return IRCapture("cuda", "sm_90", str(kernel), launch_counts={"k": len(calls)})

    monkeypatch.delenv("PASSWISE_CAPTURE_CACHE", raising=False)  # the suite's own (conftest)
    assert cached([kernel], "large", "cuda", capture).launch_counts == {"k": 1}  # no cache set
    monkeypatch.setenv("PASSWISE_CAPTURE_CACHE", str(tmp_path / "cache"))
    first = cached([kernel], "large", "cuda", capture)
    again = cached([kernel], "large", "cuda", capture)
    assert again == first and len(calls) == 2
    kernel.write_text("x = 2\n")
    assert cached([kernel], "large", "cuda", capture).launch_counts == {"k": 3}
    assert cached([kernel], "small", "cuda", capture).launch_counts == {"k": 4}


def test_the_capture_cache_key_leaves_out_only_modules_the_capture_never_runs() -> None:
    """Changing how symptoms are read must not discard every capture, and must never let a
    change to the code that makes a capture read a stale one."""
    import re

    from diagnose.ir.cache import AFTER_CAPTURE, IR_DIR

    assert all((IR_DIR / name).is_file() for name in AFTER_CAPTURE)
    for maker in ("cuda.py", "cuda_child.py", "ascend.py", "ascend_env.py", "dumps.py"):
        imports = re.findall(r"^(?:from|import) [.\w]*?(\w+) ", (IR_DIR / maker).read_text(), flags=re.M)
        assert not {f"{m}.py" for m in imports} & AFTER_CAPTURE, maker


def test_tensor_core_symptom_weighs_little_in_a_task_its_cost_model_calls_memory_bound(tmp_path: Path) -> None:
    """A dot that missed warp-group MMA is the heaviest IR symptom in a compute-bound GEMM; in a
    skinny (decode-sized) GEMM whose cost model does few FLOPs per byte it is not the cost."""
    from diagnose.ir.estimate import estimate
    from diagnose.ir.model import Symptom

    def task(m: int) -> Path:
        folder = tmp_path / f"m{m}"
        folder.mkdir()
        (folder / "task.py").write_text(textwrap.dedent(f'''\
            def cost(size, dtype=None):
                M, N, K = {m}, 8192, 8192
                return {{"bytes": 2 * (M * K + K * N + M * N), "flops": 2 * M * N * K}}
            '''))
        return folder

    skinny, square = estimate(task(16), "large"), estimate(task(8192), "large")
    assert skinny.memory_bound and not square.memory_bound
    capture = IRCapture("cuda", "sm90", "k.py", kernels=[])
    symptom = Symptom("dot-without-wgmma", "k", "tritongpu-accelerate-matmul", None, "no wgmma")
    weights = [tier3_result(capture, [symptom], FAMILIES, estimate=e).findings[0].evidence["weight"]
               for e in (None, square, skinny)]
    assert weights == [4, 4, 1]
    assert estimate(tmp_path / "nowhere", "large") is None


def test_a_measured_memory_bound_hotspot_still_discounts_compute_side_symptoms() -> None:
    """Found on a development case (2026-12-02): with H200 timings tier 3 dropped the cost-model
    estimate, so a missed wgmma (weight 4) outweighed a 268 MB hand-over between launches in a
    kernel tier 2 measured at 7% of copy bandwidth. The measured place now stands in for it."""
    from diagnose.ladder import _measured_place

    def tier2(intensity: float, hotspot: bool = True) -> TierResult:
        evidence = {"hotspot": hotspot, "intensity": intensity, "ridge": 154.9, "kernel_class": "memory-bound"}
        return TierResult(2, "profiling", [Finding(tier=2, kind="roofline", card_id="", rewrite_family="", message="m", confidence=0.4,
                                                   evidence=evidence)], sufficient=False, reason="")

    skinny, square = _measured_place(tier2(61.1)), _measured_place(tier2(2730.0))
    assert skinny.memory_bound and not square.memory_bound
    assert _measured_place(tier2(61.1, hotspot=False)) is None and _measured_place(None) is None
    capture = IRCapture("cuda", "sm90", "k.py", kernels=[])
    symptom = Symptom("dot-without-wgmma", "k", "tritongpu-accelerate-matmul", None, "no wgmma")
    assert tier3_result(capture, [symptom], FAMILIES, estimate=skinny).findings[0].evidence["weight"] == 1


def test_a_grid_of_most_sms_weighs_less_than_one_that_idles_most_of_them() -> None:
    from diagnose.ir.model import Symptom
    from diagnose.ir.tier import _weight

    def grid(programs: int) -> Symptom:
        return Symptom("grid-underfill", "k", "", None, "few programs", facts={"programs": programs, "sms": 132})

    assert _weight(grid(32)) > _weight(grid(128))


def test_a_handover_as_large_as_the_inputs_is_the_heaviest_cost_of_a_memory_bound_task() -> None:
    from diagnose.ir.estimate import Estimate
    from diagnose.ir.tier import SYMPTOM_WEIGHT, _handover_weight

    hop = {"bytes": 134_000_000, "input_bytes": 36_000_000}
    memory, compute = Estimate(60.0, 155.0, True), Estimate(1365.0, 155.0, False)
    assert _handover_weight(hop, memory) > max(SYMPTOM_WEIGHT.values()) - 1
    assert _handover_weight(hop, compute) == _handover_weight(hop, None) < _handover_weight(hop, memory)
    assert _handover_weight({"bytes": 1_000, "input_bytes": 36_000_000}, memory) == 1


TTGIR_F64 = '''
#loc = loc("k.py":7:0)
module {
  tt.func public @k() {
    %4 = arith.extf %3 : tensor<1024xf32, #blocked> to tensor<1024xf64, #blocked> loc(#loc4)
    %5 = math.log %4 : tensor<1024xf64, #blocked> loc(#loc5)
    %6 = arith.addf %1, %2 : tensor<1024xf32, #blocked> loc(#loc6)
  } loc(#loc)
} loc(#loc)
#loc4 = loc("k.py":14:12)
#loc5 = loc("k.py":15:8)
#loc6 = loc("k.py":16:8)
'''


def test_fp64_arithmetic_is_named_as_the_cause_of_the_spills_it_comes_with() -> None:
    """Spills in a kernel computing in fp64: the widening (two registers per value) is the
    mechanism tier 3 shows first, pinned to the lines that compute in fp64."""
    from diagnose.ir.symptoms import _wide_value_lines

    stages = [Stage(0, "ttgir", "convert-triton-gpu-to-llvm", "before", TTGIR_F64)]
    kir = KernelIR("k", "k.py", 7, Specialization({}, {}, {}, {}), stages)
    assert _wide_value_lines(kir) == [14, 15]


ZEROED = '''
import torch
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.{op}(out_ptr + offs, x * 2, mask=offs < n)


def run(x):
    out = torch.zeros_like(x)
    k[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out
'''


def test_zero_filled_output_that_the_kernel_only_stores_to_is_an_extra_write() -> None:
    cards = {f.card_id for f in triage(ZEROED.replace("{op}", "store"), "k.py", "cuda").findings}
    assert "common-zeroed-output" in cards
    # accumulated into with atomics, the zeros are needed
    cards = {f.card_id for f in triage(ZEROED.replace("{op}", "atomic_add"), "k.py", "cuda").findings}
    assert "common-zeroed-output" not in cards


SCALED_DOT = '''
import triton
import triton.language as tl


@triton.jit
def k(a_ptr, b_ptr, s_ptr, c_ptr, K, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, K, BLOCK):
        a = tl.load(a_ptr + r[:, None] * K + (k + r)[None, :])
        b = tl.load(b_ptr + (k + r)[:, None] * BLOCK + r[None, :])
        s = tl.load(s_ptr + {scale_index})
        acc += tl.dot(a, b) * s[:, None]
    tl.store(c_ptr + r[:, None] * BLOCK + r[None, :], acc)
'''


def test_a_dot_scaled_by_loop_invariant_values_each_step_is_hoistable_work() -> None:
    def cards(index: str) -> set[str]:
        return {f.card_id for f in triage(SCALED_DOT.replace("{scale_index}", index), "k.py", "cuda").findings}

    assert "common-loop-invariant-work" in cards("r")
    # a scale per K block (block-scaled fp8) changes every step: it must stay inside
    assert "common-loop-invariant-work" not in cards("k // BLOCK + r")


def test_a_kernel_taking_a_tuple_argument_is_read_not_crashed_on() -> None:
    """Found writing round-8 cases (2026-12-02): a kernel that takes a stride tuple has a list
    in its signature, and IR attribution failed on it with an AttributeError."""
    from diagnose.ir.symptoms import _unhinted_ints

    spec = Specialization({"x_ptr": "*fp16", "strides": ["i32", "i32"], "n": "i32"}, {}, {"n": []}, {})
    assert _unhinted_ints(KernelIR("k", "k.py", 1, spec)) == ["n"]
