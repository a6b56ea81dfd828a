"""Each rules transformation on a kernel it applies to and on one it must leave alone; the
result is real Python whose changed lines are only the rewrite (AST-located edits)."""

from __future__ import annotations

import ast
import difflib
from pathlib import Path

import pytest

from diagnose.proposers import Request
from diagnose.proposers.rules import RULES, propose
from diagnose.proposers.rules.autotune import add_autotune_configs
from diagnose.proposers.rules.hints import add_contiguity_hints, drop_do_not_specialize
from diagnose.proposers.rules.indexing import drop_redundant_select, narrow_int64_index
from diagnose.proposers.rules.tuning import (
    retune_block_sizes,
    retune_input_precision,
    retune_num_stages,
    retune_num_warps,
)

ROOT = Path(__file__).resolve().parent.parent
DEFECTS = ROOT / "bench" / "defects"


def slow(case: str) -> str:
    return (DEFECTS / case / "slow.py").read_text()


def baseline(task: str) -> str:
    return (ROOT / "kernels" / task / "baseline.py").read_text()


def changed(before: str, after: str) -> list[str]:
    """Lines added or removed (without the +/- marker)."""
    return [line[1:] for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def test_drop_do_not_specialize_restores_specialisation():
    src = slow("softmax-stride-do-not-specialize")
    [cand] = drop_do_not_specialize(src)
    assert "@triton.jit(do_not_specialize" not in cand.source
    assert "@triton.jit\ndef softmax_kernel" in cand.source
    assert len(changed(src, cand.source)) == 2  # one decorator line out, one in
    assert "# do_not_specialize keeps one binary" in cand.source  # comments survive


def test_drop_do_not_specialize_leaves_plain_jit_alone():
    assert drop_do_not_specialize(baseline("softmax")) == []


def test_contiguity_hints_wrap_block_offsets():
    src = baseline("add")
    [cand] = add_contiguity_hints(src)
    assert "tl.max_contiguous(tl.multiple_of(tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), BLOCK), BLOCK)" in cand.source
    assert cand.params == {"offsets": ["offs"]}


def test_contiguity_hints_leave_row_kernels_alone():
    # softmax's columns are tl.arange alone: nothing to hint
    assert add_contiguity_hints(baseline("softmax")) == []


def test_narrow_int64_index_removes_widening():
    src = slow("add-int64-index")
    [cand] = narrow_int64_index(src)
    assert "tl.int64" not in cand.source.split("def run")[0].split("# widened")[1].split("\n", 1)[1]
    assert "offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)" in cand.source
    assert cand.params == {"casts_removed": 2}


def test_narrow_int64_index_leaves_int32_kernels_alone():
    assert narrow_int64_index(baseline("add")) == []


def test_drop_redundant_select_after_masked_load():
    src = slow("max-where-after-load")
    [cand] = drop_redundant_select(src)
    assert "x = tl.where" not in cand.source
    assert changed(src, cand.source) == ['    x = tl.where(mask, x, -float("inf"))  # redundant: the load already filled the padding']


def test_drop_redundant_select_keeps_a_select_with_another_fill():
    src = slow("max-where-after-load").replace('x = tl.where(mask, x, -float("inf"))', "x = tl.where(mask, x, 0.0)")
    assert drop_redundant_select(src) == []


def test_block_sizes_scale_launch_and_grid_together():
    src = slow("gelu-block-64")
    cands = retune_block_sizes(src)
    assert [c.params["to"] for c in cands] == [128, 256, 32]
    c128 = cands[0].source
    assert "gelu_kernel[(triton.cdiv(n, 128),)](x, out, n, BLOCK=128)" in c128


def test_block_sizes_group_gemm_tiles_that_share_a_grid_literal():
    cands = retune_block_sizes(slow("gemm-num-stages-1"))
    first = cands[0]
    assert first.params["keywords"] == ["BLOCK_M", "BLOCK_N"] and first.params["to"] == 128
    assert "grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))" in first.source
    assert "BLOCK_M=128, BLOCK_N=128, BLOCK_K=32" in first.source


def test_block_sizes_leave_computed_blocks_alone():
    # softmax launches BLOCK=triton.next_power_of_2(N): not a literal to search
    assert retune_block_sizes(baseline("softmax")) == []


def test_num_warps_searched_and_added_when_absent():
    cands = retune_num_warps(slow("softmax-num-warps-1"))
    assert sorted(c.params["num_warps"] for c in cands) == [2, 4, 8, 16, 32]
    added = retune_num_warps(baseline("add"))
    assert "BLOCK=1024, num_warps=8)" in next(c.source for c in added if c.params["num_warps"] == 8)


def test_num_warps_leaves_runtime_choice_alone():
    src = baseline("add").replace("BLOCK=1024)", "BLOCK=1024, num_warps=nw)").replace(
        "    out = torch.empty_like(x)", "    nw = 4 if x.numel() > 65536 else 2\n    out = torch.empty_like(x)")
    assert retune_num_warps(src) == []


def test_launch_values_held_in_locals_are_searched_where_they_are_bound():
    warps = retune_num_warps(slow("cumsum-one-warp-variable"))
    assert "    warps = 8  # a scan" in next(c.source for c in warps if c.params["num_warps"] == 8)
    stages = retune_num_stages(slow("flash-attn-num-stages-variable"))
    assert sorted(c.params["num_stages"] for c in stages) == [2, 3, 4, 5]
    assert "    stages = 3  # a 128x128" in next(c.source for c in stages if c.params["num_stages"] == 3)
    blocks = retune_block_sizes(slow("silu-block-local-variable"))
    assert [c.params["to"] for c in blocks] == [256, 512, 64]
    assert "    BLOCK = 256  # one element" in blocks[0].source
    assert "silu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)" in blocks[0].source


def test_num_stages_for_a_dot_loop():
    cands = retune_num_stages(slow("gemm-num-stages-1"))
    assert sorted(c.params["num_stages"] for c in cands) == [2, 3, 4, 5]
    assert all("num_stages=1)" not in c.source for c in cands)


def test_num_stages_leaves_kernels_without_a_dot_loop_alone():
    assert retune_num_stages(baseline("add")) == []


def test_input_precision_drops_ieee_and_upcasts():
    src = slow("gemm-fp32-ieee-dot")
    native, tf32 = retune_input_precision(src)
    assert "acc = tl.dot(a, b, acc)" in native.source
    assert 'input_precision="tf32"' in tf32.source and "a.to(tl.float32)" in tf32.source


def test_input_precision_leaves_a_plain_dot_alone():
    assert retune_input_precision(baseline("gemm_fp16")) == []


def test_autotune_configs_replace_literal_launch_parameters():
    [cand] = add_autotune_configs(baseline("add"))
    assert "@triton.autotune(" in cand.source and "key=['n']" in cand.source
    assert "triton.Config({'BLOCK': 4096}, num_warps=8)" in cand.source
    assert 'add_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n)' in cand.source
    assert cand.params["configs"] == 8


def test_autotune_configs_leave_computed_or_tuned_launches_alone():
    assert add_autotune_configs(baseline("softmax")) == []  # BLOCK = next_power_of_2(N)
    [cand] = add_autotune_configs(baseline("add"))
    assert add_autotune_configs(cand.source) == []  # already autotuned


@pytest.mark.parametrize("family,fn", RULES)
def test_every_rule_output_parses(family, fn):
    for case in sorted(p.name for p in DEFECTS.iterdir() if (p / "slow.py").is_file()):
        for cand in fn(slow(case)):
            ast.parse(cand.source)


def _request(family: str, kernel: str, tried: list[str] | None = None) -> Request:
    diagnosis = {"verdict": "concluded", "reason": "r", "tiers": [],
                 "conclusion": {"rewrite_family": family, "card_id": "c", "explanation": "why", "supporting": []}}
    return Request("t", "", kernel, diagnosis, [], family, tried or [])


def test_propose_uses_the_next_transformation_of_the_family_once_one_was_tried():
    src = slow("softmax-stride-do-not-specialize")
    first = propose(_request("add-divisibility-hints", src))
    assert first.transformation == "drop_do_not_specialize" and first.hypothesis == "why"
    second = propose(_request("add-divisibility-hints", src, ["drop_do_not_specialize"]))
    assert second.transformation is None and second.candidates == []  # no block offsets to hint
    assert "tried drop_do_not_specialize, add_contiguity_hints" in second.reason


def test_propose_says_when_a_family_has_no_rule():
    p = propose(_request("fuse-launches", baseline("add")))
    assert p.candidates == [] and "no transformation for 'fuse-launches'" in p.reason


TINY_BLOCK = '''
import triton
import triton.language as tl

@triton.jit
def pairs(x, out, n, BLOCK_C: tl.constexpr):
    c = tl.arange(0, BLOCK_C)
    tl.store(out + c, tl.load(x + c, mask=c < n), mask=c < n)

def run(x, out):
    pairs[(1,)](x, out, x.numel(), BLOCK_C=2)
'''


def test_autotune_leaves_a_launch_whose_only_block_is_too_small_to_tune():
    # a 2-wide block has no neighbour inside [16, 16384]: no config, no decorator with an empty list
    assert add_autotune_configs(TINY_BLOCK) == []


def test_precision_retune_rewrites_a_dot_nested_in_another_dots_accumulator():
    """A dot passed as another dot's accumulator is rewritten too, in one parseable source."""
    text = ("import triton.language as tl\n"
            "def k(a, b, c, d):\n"
            "    return tl.dot(a, b, tl.dot(c, d, input_precision=\"ieee\"), input_precision=\"ieee\")\n")
    native, tf32 = retune_input_precision(text)
    assert "ieee" not in native.source and native.source.count("tl.dot(") == 2
    assert tf32.source.count('"tf32"') == 2
