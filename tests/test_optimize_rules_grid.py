"""The grid rules (split-work-across-programs, one-launch-over-grid, reduce-along-contiguous-axis)
and the GEMM configuration set: each on a kernel it applies to, checked by the real runner in the
Triton interpreter (the slow tests: one runner subprocess each), and on a kernel it must leave alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest

from diagnose.proposers import Request
from diagnose.proposers.rules import MAX_CANDIDATES, propose
from diagnose.proposers.rules.axis import transpose_strided_tile
from diagnose.proposers.rules.gemm import HOPPER_TILES, gemm_autotune_configs, gemm_tile_configs
from diagnose.proposers.rules.grouping import add_grouped_ordering
from diagnose.proposers.rules.launchloop import launch_loop_to_grid_axis
from diagnose.proposers.rules.split import (
    shrink_rows_per_program,
    widen_grid_stride,
)
from diagnose.proposers.rules.units import loop_to_grid_axis

ROOT = Path(__file__).resolve().parent.parent
DEFECTS = ROOT / "bench" / "defects"
GROUPED_GEMM = (Path(__file__).parent / "optimize_fixtures" / "grouped_gemm.py").read_text()
ROW_LOOP = (Path(__file__).parent / "optimize_fixtures" / "bias_gelu_rows.py").read_text()  # a program per long row


def slow(case: str) -> str:
    return (DEFECTS / case / "slow.py").read_text()


def baseline(task: str) -> str:
    return (ROOT / "kernels" / task / "baseline.py").read_text()


def verify(folder: Path, name: str, task: str, source: str, dtype: str) -> dict:
    """The runner's verdict on a candidate at the task's small size (Triton interpreter, CPU)."""
    cand = folder / f"{name}.py"
    cand.write_text(source)
    env = {**os.environ, "TRITON_INTERPRET": "1"}
    out = subprocess.run([sys.executable, "-m", "diagnose.runner", "verify", str(ROOT / "kernels" / task),
                          str(cand), "--device", "cpu", "--sizes", "small", "--seeds", "1", "--dtypes", dtype,
                          "--no-probes"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    return json.loads(out.stdout)


def _grouped_autotune_one_config() -> str:
    """Grouped ordering, then the GEMM autotune set cut to its 128x256 config: the interpreter
    has no driver to time the autotuner with, and with one config autotune takes it untimed.
    One run checks the remap, GROUP_M from the config and the grid reading BLOCK_M and BLOCK_N
    the right way round."""
    [grouped] = add_grouped_ordering(baseline("gemm_fp16"))
    [cand] = gemm_autotune_configs(grouped.source)
    lines = cand.source.splitlines(keepends=True)
    one = "".join(line for line in lines if "triton.Config(" not in line or "'BLOCK_N': 256" in line)
    assert one.count("triton.Config(") == 1 and "'GROUP_M': 8" in one
    return one


# name -> (task, dtype, the rewritten kernel): each is verified by the real runner
REWRITES = {
    # 2 programs per SM: 2 programs on the CPU, each walking every other token through the helper
    "grid-stride-per-sm": ("embedding", "float32",
                           lambda: widen_grid_stride(slow("embedding-grid-stride-64-programs"))[1].source),
    "rows-per-program": ("layernorm", "float32",
                         lambda: shrink_rows_per_program(slow("layernorm-few-programs"))[-1].source),
    "loop-to-grid-axis": ("group_norm", "float32",
                          lambda: loop_to_grid_axis(slow("group-norm-sample-per-program"))[0].source),
    "row-blocks-to-grid-axis": ("bias_gelu", "float32", lambda: loop_to_grid_axis(ROW_LOOP)[0].source),
    "launch-loop": ("batched_gemm", "float16",
                    lambda: launch_loop_to_grid_axis(slow("batched-gemm-batch-launch-loop"))[0].source),
    # 128x256 tiles over a 128x96 output: the masks at work
    "gemm-tiles": ("gemm_fp16", "float16", lambda: gemm_tile_configs(GROUPED_GEMM)[0].source),
    "grouped-gemm-autotune": ("gemm_fp16", "float16", _grouped_autotune_one_config),
    "transposed-tile": ("sum", "float32", lambda: transpose_strided_tile(slow("sum-reduce-strided-axis"))[0].source),
}


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory) -> dict[str, dict]:
    """Every rewrite verified in one go, two runner processes at a time (CI has two cores)."""
    folder = tmp_path_factory.mktemp("rewrites")
    with ThreadPoolExecutor(2) as pool:
        futures = {name: pool.submit(verify, folder, name, task, build(), dtype)
                   for name, (task, dtype, build) in REWRITES.items()}
    return {name: f.result() for name, f in futures.items()}


# ------------------------------------------------------------ split-work-across-programs

def test_grid_stride_gets_one_program_per_item_and_sm_multiples():
    cands = widen_grid_stride(slow("embedding-grid-stride-64-programs"))
    assert [c.params["programs"] for c in cands] == ["per-item", "2*SMs", "4*SMs", "8*SMs"]
    per_item = cands[0].source
    assert "num_programs = T  # grid-stride loop" in per_item  # the bound literal, not the launch
    assert "range(tl.program_id(0), T, tl.num_programs(0))" in per_item  # the kernel is unchanged
    sm = cands[2].source
    assert "num_programs = 4 * _sm_count(table.device)" in sm
    assert "def _sm_count(device: torch.device) -> int:" in sm


@pytest.mark.slow
def test_grid_stride_candidates_stay_correct(verdicts):
    assert verdicts["grid-stride-per-sm"]["verdict"] == "pass"


GRID_STRIDE_COUNT_PARAM = '''
import torch
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, NUM_PROGRAMS: tl.constexpr, BLOCK: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, n, NUM_PROGRAMS * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


def run(x):
    out = torch.empty_like(x)
    scale_kernel[(32,)](x, out, x.numel(), NUM_PROGRAMS=32, BLOCK=1024)
    return out
'''


def test_grid_stride_over_blocks_with_a_count_parameter_changes_both():
    per_item = widen_grid_stride(GRID_STRIDE_COUNT_PARAM)[0].source
    assert ("scale_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), "
            "NUM_PROGRAMS=triton.cdiv(x.numel(), 1024), BLOCK=1024)") in per_item
    named = GRID_STRIDE_COUNT_PARAM.replace("    scale_kernel[(32,)]", "    grid = (32,)\n    scale_kernel[grid]")
    per_sm = widen_grid_stride(named)[1].source
    assert "grid = (2 * _sm_count(x.device),)" in per_sm and "NUM_PROGRAMS=2 * _sm_count(x.device)" in per_sm


PERSISTENT_COPY = '''
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    first = tl.program_id(0)
    step = tl.num_programs(0)
    for blk in tl.range(first, tl.cdiv(n, BLOCK), step):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def run(x):
    out = torch.empty_like(x)
    copy_kernel[(16,)](x, out, x.numel(), BLOCK=512)
    return out
'''


def test_persistent_tl_range_over_bound_ids_gets_more_programs():
    cands = widen_grid_stride(PERSISTENT_COPY)
    assert "copy_kernel[(triton.cdiv(x.numel(), 512),)](x, out" in cands[0].source  # one per block
    assert "copy_kernel[(8 * _sm_count(x.device),)]" in cands[-1].source


def test_grid_stride_with_a_slot_per_program_is_left_alone():
    # each program writes its partial sum at its own slot: the count is part of the result
    partials = GRID_STRIDE_COUNT_PARAM.replace(
        "        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)",
        "        tl.store(out_ptr + tl.program_id(0), tl.sum(tl.load(x_ptr + offs, mask=offs < n)))")
    assert widen_grid_stride(partials) == []
    assert widen_grid_stride(baseline("embedding")) == []  # already one program per token


def test_rows_per_program_shrinks_with_the_grid():
    cands = shrink_rows_per_program(slow("layernorm-few-programs"))
    assert [c.params["to"] for c in cands] == [64, 16, 4]
    assert "rows_per_program = 4  # amortise" in cands[-1].source
    assert "grid = (triton.cdiv(M, rows_per_program),)" in cands[-1].source


@pytest.mark.slow
def test_fewer_rows_per_program_stay_correct(verdicts):
    assert verdicts["rows-per-program"]["verdict"] == "pass"


def test_rows_per_program_left_alone_when_the_grid_does_not_divide_by_it():
    src = slow("layernorm-few-programs")
    assert shrink_rows_per_program(baseline("layernorm")) == []
    fixed_grid = src.replace("grid = (triton.cdiv(M, rows_per_program),)", "grid = (triton.cdiv(M, 256),)")
    assert shrink_rows_per_program(fixed_grid) == []


def test_loop_over_independent_units_becomes_a_grid_axis():
    [cand] = loop_to_grid_axis(slow("group-norm-sample-per-program"))
    assert cand.params == {"kernel": "group_norm_kernel", "axis": 1, "unit": "group"}
    assert "    group = tl.program_id(1)\n    base = (sample * G + group)" in cand.source
    assert "for group in range(G)" not in cand.source
    assert "group_norm_kernel[(N, groups)](x, w, b, out," in cand.source
    assert "\n    for start in range(0, size, BLOCK):\n        offs = start" in cand.source  # body one level out


@pytest.mark.slow
def test_loop_to_grid_axis_stays_correct(verdicts):
    assert verdicts["loop-to-grid-axis"]["verdict"] == "pass"


def test_a_long_row_walked_in_blocks_is_split_across_programs():
    [cand] = loop_to_grid_axis(ROW_LOOP)
    assert "    start = tl.program_id(1) * BLOCK\n    cols = start + tl.arange(0, BLOCK)\n" in cand.source
    assert "bias_gelu_rows_kernel[(rows, triton.cdiv(N, 64))](x, b, out, N, N, BLOCK=64)" in cand.source


@pytest.mark.slow
def test_row_split_stays_correct(verdicts):
    assert verdicts["row-blocks-to-grid-axis"]["verdict"] == "pass"


def test_a_row_reduction_is_not_split():
    # the row's blocks feed one running sum: splitting would need a second-stage combine
    rowsum = ROW_LOOP.replace("    for start in range(0, N, BLOCK):", "    total = 0.0\n    for start in range(0, N, BLOCK):").replace(
        "        tl.store(out_ptr + row * stride_row + cols, y.to(out_ptr.dtype.element_ty), mask=mask)",
        "        total += tl.sum(y, axis=0)\n        tl.store(out_ptr + row, total)")
    assert "total += tl.sum" in rowsum and loop_to_grid_axis(rowsum) == []
    # a second pass after a first one over the same row (a max, then the masked copy): split, each
    # unit would redo the first pass
    assert loop_to_grid_axis(slow("ascend-min-p-data-mask-store")) == []


def test_loops_whose_units_share_state_or_outputs_are_left_alone():
    src = slow("group-norm-sample-per-program")
    # the accumulators start before the loop: each group adds to the last one's sums
    carried = src.replace("    for group in range(G):\n", "    acc = tl.zeros((BLOCK,), dtype=tl.float32)\n"
                          "    for group in range(G):\n").replace(
        "        acc = tl.zeros((BLOCK,), dtype=tl.float32)\n", "")
    assert loop_to_grid_axis(carried) == []
    # every group writes the same place: in parallel the last writer is not the last group
    same_slot = src.replace("tl.store(out_ptr + base + offs,", "tl.store(out_ptr + sample * size + offs,")
    assert loop_to_grid_axis(same_slot) == []
    # a kernel that reads what it writes (in place) is not split
    in_place = src.replace("tl.store(out_ptr + base + offs,", "tl.store(x_ptr + base + offs,")
    assert loop_to_grid_axis(in_place) == []
    # a loop over keys with a running max and sum (splitting it needs a merge: not done here)
    assert loop_to_grid_axis(slow("decode-attention-one-program-per-head")) == []


# ------------------------------------------------------------ one-launch-over-grid

def test_launch_loop_becomes_a_grid_axis():
    [cand] = launch_loop_to_grid_axis(slow("batched-gemm-batch-launch-loop"))
    src = cand.source
    assert cand.params == {"kernel": "matmul_kernel", "axis": 2, "batched": ["a_ptr", "b_ptr", "c_ptr"]}
    assert "for i in range(B)" not in src
    assert "grid = (triton.cdiv(M, 128), triton.cdiv(N, 128), B)" in src
    assert "    batch = tl.program_id(2).to(tl.int64)\n    a_ptr += batch * stride_a_batch\n" in src
    assert "matmul_kernel[grid](a, b, c, M, N, K," in src
    assert "stride_c_batch=c.stride(0))" in src


@pytest.mark.slow
def test_one_launch_over_grid_stays_correct(verdicts):
    assert verdicts["launch-loop"]["verdict"] == "pass"


def test_launch_loops_it_cannot_read_exactly_are_left_alone():
    # segments planned on the host with a while loop and slices: not `for i in range(B): k(x[i])`
    assert launch_loop_to_grid_axis(slow("moe-grouped-gemm-expert-launch-loop")) == []
    src = slow("batched-gemm-batch-launch-loop")
    # the loop variable also feeds a size: the launches differ by more than a batch offset
    assert launch_loop_to_grid_axis(src.replace("c[i], M, N, K,", "c[i], M - i, N, K,")) == []
    # the body does more than launch
    assert launch_loop_to_grid_axis(src.replace("        matmul_kernel[grid]",
                                                "        c[i].zero_()\n        matmul_kernel[grid]")) == []
    assert launch_loop_to_grid_axis(baseline("batched_gemm")) == []  # already one launch


# ------------------------------------------------------------ GEMM tile configurations



def test_gemm_set_reaches_hopper_tiles_in_one_round():
    cands = gemm_tile_configs(baseline("gemm_fp16"))
    assert len(cands) == len(HOPPER_TILES) == MAX_CANDIDATES  # the whole set is timed in one round
    tiles = {(c.params["BLOCK_M"], c.params["BLOCK_N"], c.params["BLOCK_K"], c.params["num_warps"],
              c.params["num_stages"]) for c in cands}
    assert {(128, 256, 64, 8, 3), (128, 128, 64, 8, 4), (128, 128, 64, 8, 3)} <= tiles
    wide = cands[0].source  # BLOCK_M != BLOCK_N: each grid literal follows its own block
    assert "grid = (triton.cdiv(M, 128), triton.cdiv(N, 256))" in wide
    assert "BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, num_stages=3, num_warps=8)" in wide


def test_gemm_tiles_held_in_locals_are_set_where_they_are_bound():
    src = slow("gemm-bf16-tiles-local-variables")
    first = gemm_tile_configs(src)[0].source
    assert "    block_m, block_n, block_k = 128, 256, 64  # small tiles" in first
    assert "grid = (triton.cdiv(M, block_m), triton.cdiv(N, block_n))" in first
    [tuned] = gemm_autotune_configs(src)
    assert 'grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]))' in tuned.source
    # one local for two blocks cannot be set to two values
    shared = src.replace("BLOCK_N=block_n", "BLOCK_N=block_m").replace("triton.cdiv(N, block_n)", "triton.cdiv(N, block_m)")
    assert gemm_tile_configs(shared) == []


@pytest.mark.parametrize("family,then", [("block-size-tuning", "retune_block_sizes"),
                                         ("num-warps-tuning", "retune_num_warps"),
                                         ("pipeline-stages", "retune_num_stages")])
def test_gemm_set_comes_first_through_propose_and_is_not_cut(family, then):
    diagnosis = {"verdict": "concluded", "tiers": [], "conclusion": {"rewrite_family": family}}
    p = propose(Request("gemm_fp16", "", baseline("gemm_fp16"), diagnosis, [], family))
    assert p.transformation == "gemm_tile_configs" and len(p.candidates) == MAX_CANDIDATES
    again = propose(Request("gemm_fp16", "", baseline("gemm_fp16"), diagnosis, [], family, ["gemm_tile_configs"]))
    assert again.transformation == then  # the plain search when the set lost on this parent
    # a kernel that is not a GEMM goes straight to the plain search
    assert propose(Request("gelu", "", slow("gelu-block-64"), diagnosis, [], family)).transformation in (then, None)


def test_gemm_grouped_ordering_follows_the_kernels_cdiv_and_sets_group_8():
    first = gemm_tile_configs(GROUPED_GEMM)[0].source
    assert "matmul_kernel[(triton.cdiv(M, 128) * triton.cdiv(N, 256),)](" in first
    assert "BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8, num_warps=8, num_stages=3)" in first


@pytest.mark.slow
def test_gemm_tiles_stay_correct(verdicts):
    assert verdicts["gemm-tiles"]["verdict"] == "pass"


def test_gemm_autotune_set_reads_each_block_from_meta():
    [cand] = gemm_autotune_configs(baseline("gemm_fp16"))
    src = cand.source
    assert cand.params["configs"] == len(HOPPER_TILES) + 1 and cand.params["key"] == ["M", "N", "K"]
    assert "triton.Config({'BLOCK_M': 128, 'BLOCK_N': 256, 'BLOCK_K': 64}, num_warps=8, num_stages=3)" in src
    assert 'grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]))' in src
    assert "c.stride(0), c.stride(1))" in src  # the tuned keywords left the launch


@pytest.mark.slow
def test_grouped_gemm_under_one_autotune_config_stays_correct(verdicts):
    assert verdicts["grouped-gemm-autotune"]["verdict"] == "pass"


def test_gemm_configs_leave_other_kernels_alone():
    assert gemm_tile_configs(baseline("add")) == [] and gemm_autotune_configs(baseline("add")) == []
    # a grid that does not follow the blocks (here: a fixed persistent count) cannot be retiled safely
    fixed = baseline("gemm_fp16").replace("grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))", "grid = (132, 1)")
    assert gemm_tile_configs(fixed) == [] and gemm_autotune_configs(fixed) == []
    [tuned] = gemm_autotune_configs(baseline("gemm_fp16"))
    assert gemm_tile_configs(tuned.source) == [] and gemm_autotune_configs(tuned.source) == []


# ------------------------------------------------------------ reduce-along-contiguous-axis

def test_tile_with_unit_stride_on_axis0_is_loaded_transposed_and_reduced_along_axis1():
    src = slow("sum-reduce-strided-axis")
    [cand] = transpose_strided_tile(src)
    assert cand.params == {"tiles": ["tile"]}
    assert "tl.load(x_ptr + rows[:, None] * stride_row + cols[None, :]," in cand.source
    assert "mask=(cols[None, :] < N) & (rows[:, None] < M), other=0.0)" in cand.source
    assert "acc += tl.sum(tile.to(tl.float32), axis=1)" in cand.source


@pytest.mark.slow
def test_transposed_tile_stays_correct(verdicts):
    assert verdicts["transposed-tile"]["verdict"] == "pass"


def test_tiles_already_contiguous_on_the_last_axis_or_used_whole_are_left_alone():
    src = slow("sum-reduce-strided-axis")
    # the card's "before": rows strided on axis 0, columns contiguous on axis 1 (a column sum)
    before = src.replace("rows[None, :] * stride_row + cols[:, None]", "rows[:, None] * stride_row + cols[None, :]")
    assert "rows[:, None] * stride_row + cols[None, :]" in before and transpose_strided_tile(before) == []
    # the tile meets another 2-D tensor: its orientation matters beyond the reduction
    weighted = src.replace("tl.sum(tile.to(tl.float32), axis=0)", "tl.sum(tile * w, axis=0)")
    assert transpose_strided_tile(weighted) == []
    # the tile is also stored whole
    stored = src.replace("        acc += tl.sum", "        tl.store(out_ptr + cols[:, None], tile)\n        acc += tl.sum")
    assert transpose_strided_tile(stored) == []
    assert transpose_strided_tile(baseline("gemm_fp16")) == []  # tiles that meet in tl.dot


# ------------------------------------------------------------ l2-grouped-ordering

def _remap_lines(source: str) -> str:
    """The lines add_grouped_ordering put at the top of the kernel (up to the first tile index)."""
    body = source.split("BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):\n", 1)[1]
    return textwrap.dedent(body.split("    rm = ", 1)[0])


def test_grouped_ordering_remaps_program_ids_and_launches_with_group_8():
    [cand] = add_grouped_ordering(baseline("gemm_fp16"))
    assert "rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)" in cand.source
    assert "rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)" in cand.source
    assert "BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, GROUP_M=8)" in cand.source
    assert "grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))" in cand.source  # the grid is unchanged
    # the tile search still reads the grouped kernel: its masks tie each grid literal to a block
    assert "grid = (triton.cdiv(M, 128), triton.cdiv(N, 256))" in gemm_tile_configs(cand.source)[0].source


@pytest.mark.parametrize("grid", [(13, 7), (3, 20), (8, 8), (1, 5)])
def test_grouped_remap_visits_every_tile_once(grid):
    # the emitted index math, run in Python over every program of a grid: a bijection onto tiles
    code = _remap_lines(add_grouped_ordering(baseline("gemm_fp16"))[0].source)
    tiles = []
    for p1 in range(grid[1]):
        for p0 in range(grid[0]):
            ids = (p0, p1)
            tl = SimpleNamespace(program_id=lambda a, ids=ids: ids[a], num_programs=lambda a: grid[a])
            scope = {"tl": tl, "GROUP_M": 8}
            exec(code, scope)
            tiles.append((scope["pid_m"], scope["pid_n"]))
    assert sorted(tiles) == sorted((m, n) for m in range(grid[0]) for n in range(grid[1]))


def test_grouped_ordering_leaves_grouped_or_non_gemm_kernels_alone():
    assert add_grouped_ordering(GROUPED_GEMM) == []  # already has GROUP_SIZE_M
    assert add_grouped_ordering(baseline("add")) == []
    # a kernel that reads tl.num_programs already does its own program arithmetic
    own = baseline("gemm_fp16").replace("rk = tl.arange(0, BLOCK_K)", "rk = tl.arange(0, BLOCK_K) + 0 * tl.num_programs(0)")
    assert add_grouped_ordering(own) == []


def _ranked_diagnosis(concluded: str, ranked: list[tuple[str, str, float]]) -> dict:
    """A concluded diagnosis whose ranking carries other families, each with its tier-1 finding."""
    findings = [{"tier": 1, "kind": "pattern", "card_id": card, "message": f"{card} seen"}
                for _, card, _ in ranked]
    return {"verdict": "concluded", "reason": "r",
            "tiers": [{"tier": 1, "findings": findings}],
            "conclusion": {"rewrite_family": concluded, "card_id": "generic", "explanation": "why",
                           "supporting": []},
            "ranking": [{"rewrite_family": concluded, "score": 0.85, "card_id": "generic",
                         "by_tier": {"4": 0.85}, "concluded": True}]
            + [{"rewrite_family": fam, "score": score, "card_id": card, "by_tier": {"1": score}}
               for fam, card, score in ranked]}


def test_a_concluded_family_without_a_rule_falls_back_to_the_next_ranked_family_with_evidence():
    diagnosis = _ranked_diagnosis("layout-friendly-shapes", [("autotune-configs", "common-no-autotune", 0.45),
                                                             ("l2-grouped-ordering", "cuda-matmul-no-grouping", 0.35)])
    p = propose(Request("gemm_fp16", "", baseline("gemm_fp16"), diagnosis, [], "layout-friendly-shapes"))
    # a GEMM's configs are first measured by the loop as constants, then as an autotuner
    assert p.family == "autotune-configs" and p.transformation == "gemm_tile_configs"
    assert p.card_id == "common-no-autotune" and p.evidence[0]["message"] == "common-no-autotune seen"
    assert "layout-friendly-shapes" in p.fallback and "autotune-configs" in p.fallback
    tuned = propose(Request("gemm_fp16", "", baseline("gemm_fp16"), diagnosis, [], "layout-friendly-shapes",
                            ["gemm_tile_configs"]))
    assert tuned.family == "autotune-configs" and tuned.transformation == "gemm_autotune_configs"
    # once those were tried on this parent, the next ranked family follows
    nxt = propose(Request("gemm_fp16", "", baseline("gemm_fp16"), diagnosis, [], "layout-friendly-shapes",
                          ["gemm_tile_configs", "gemm_autotune_configs", "add_autotune_configs"]))
    assert nxt.family == "l2-grouped-ordering" and nxt.transformation == "add_grouped_ordering"


def test_weakly_ranked_families_are_not_acted_on_and_a_concluded_rule_wins():
    weak = _ranked_diagnosis("layout-friendly-shapes", [("autotune-configs", "common-no-autotune", 0.2)])
    p = propose(Request("gemm_fp16", "", baseline("gemm_fp16"), weak, [], "layout-friendly-shapes"))
    assert p.candidates == [] and p.fallback == "" and "no transformation for 'layout-friendly-shapes'" in p.reason
    own = _ranked_diagnosis("block-size-tuning", [("autotune-configs", "common-no-autotune", 0.45)])
    q = propose(Request("gemm_fp16", "", baseline("gemm_fp16"), own, [], "block-size-tuning"))
    assert q.family == "block-size-tuning" and q.fallback == "" and q.transformation == "gemm_tile_configs"


def test_a_block_the_problem_fixes_is_tuned_through_its_warps():
    # cross_entropy's baseline: one program per row, BLOCK = next_power_of_2(V) (32768 at V=32000)
    # on the default 4 warps; no literal block to scale, so block-size-tuning sizes the warps.
    diagnosis = {"verdict": "concluded", "tiers": [], "conclusion": {"rewrite_family": "block-size-tuning"}}
    p = propose(Request("cross_entropy", "", baseline("cross_entropy"), diagnosis, [], "block-size-tuning"))
    assert p.transformation == "retune_num_warps"
    assert any("num_warps=32" in c.source for c in p.candidates)
    # a kernel with a literal block keeps the block search first
    assert propose(Request("gelu", "", slow("gelu-block-64"), diagnosis, [], "block-size-tuning")).transformation \
        == "retune_block_sizes"
