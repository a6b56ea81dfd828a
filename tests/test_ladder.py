"""The diagnosis ladder: real tiers (triage, IR capture compiled for sm_90 on this CPU), the
policy that decides where to stop, the diagnosis JSON and `passwise diagnose` end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from diagnose.evidence import Finding
from diagnose.ladder import Options, confirms, decide, diagnose, make_context
from diagnose.report import Diagnosis, render_text
from diagnose.target import DiagnosisError, resolve_target

ROOT = Path(__file__).resolve().parent.parent

TASK_1D = '''
import torch
META = {"name": "t", "sizes": {"small": {"N": 4096}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(4096, generator=g), torch.randn(4096, generator=g))
def reference(x, y):
    return x + y
'''

# A runtime stride (never specialised) hides contiguity from the coalesce pass: 32-bit loads.
VADD_RUNTIME_STRIDE = '''
import torch, triton, triton.language as tl

@triton.jit(do_not_specialize=["stride"])
def add_kernel(x_ptr, y_ptr, out_ptr, n, stride, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs * stride, mask=m)
    y = tl.load(y_ptr + offs * stride, mask=m)
    tl.store(out_ptr + offs * stride, x + y, mask=m)

def run(x, y):
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), x.stride(0), BLOCK=1024)
    return out
'''

TASK_2D = '''
import torch
META = {"name": "t", "sizes": {"small": {"M": 64, "N": 64}}}
def make_inputs(size, device="cpu", seed=0, dtype=None):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(64, 64, generator=g),)
def reference(x):
    return x.t().contiguous()
'''

# tl.trans between a row-major load and store leaves a ttg.convert_layout in the lowering;
# no tier-1 detector hypothesises layout churn.
TRANSPOSE = '''
import torch, triton, triton.language as tl

@triton.jit
def transpose_kernel(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(y_ptr + rn[:, None] * M + rm[None, :], tl.trans(x))

def run(x):
    y = torch.empty_like(x)
    transpose_kernel[(1,)](x, y, M=64, N=64)
    return y
'''

# Flattened index decoded with // and % by a runtime width: tier 1 suspects both the div/mod
# and the strided fast axis, and the scalar loads tier 3 sees fit either.
DIVMOD_GATHER = '''
import torch, triton, triton.language as tl

@triton.jit(do_not_specialize=["n_cols"])
def scale_kernel(x_ptr, y_ptr, n, n_cols, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    row = offs // n_cols
    col = offs % n_cols
    m = offs < n
    x = tl.load(x_ptr + row * n_cols + col, mask=m)
    tl.store(y_ptr + offs, x * 2, mask=m)

def run(x, y):
    out = torch.empty_like(x)
    scale_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), 100, BLOCK=1024)
    return out
'''

# An element offset of 3 cannot be proven 16-byte aligned: scalar loads, and no tier-1 detector
# hypothesises anything about a plain runtime offset.
SHIFTED_COPY = '''
import torch, triton, triton.language as tl

@triton.jit
def shifted_copy(x_ptr, out_ptr, n, start, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + start + offs, mask=m), mask=m)

def run(x, y):
    out = torch.empty_like(x)
    shifted_copy[(triton.cdiv(x.numel() - 3, 1024),)](x, out, x.numel() - 3, 3, BLOCK=1024)
    return out
'''

# Valid Python, invalid Triton: tl.arange needs compile-time bounds.
NOT_TRITON = '''
import torch, triton, triton.language as tl

@triton.jit
def bad_kernel(x_ptr, out_ptr, n):
    offs = tl.arange(0, n)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))

def run(x, y):
    out = torch.empty_like(x)
    bad_kernel[(1,)](x, out, x.numel())
    return out
'''

# Two tiny launches where one would do: what a launch-bound profile points at.
TWO_LAUNCHES = '''
import torch, triton, triton.language as tl

@triton.jit
def scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)

@triton.jit
def relu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)

def run(x, y):
    n = x.numel()
    tmp = torch.empty_like(x)
    out = torch.empty_like(x)
    grid = (triton.cdiv(n, 1024),)
    scale[grid](x, tmp, n, BLOCK=1024)
    relu[grid](tmp, out, n, BLOCK=1024)
    return out
'''


def make_task(root: Path, name: str, task_py: str, baseline: str) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "task.py").write_text(textwrap.dedent(task_py))
    (folder / "baseline.py").write_text(textwrap.dedent(baseline))
    return folder


def climb(folder: Path, **options) -> Diagnosis:
    """Run the real ladder over a task folder with no knowledge base (tier 4 unavailable)."""
    ctx = make_context(resolve_target(str(folder)), "cuda", Options(**options), open_kb=None)
    return diagnose(ctx)


def tier_numbers(d: Diagnosis) -> list[int]:
    return [t.tier for t in d.tiers]


@pytest.fixture(scope="module")
def tasks(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("ladder")
    make_task(root, "vadd", TASK_1D, VADD_RUNTIME_STRIDE)
    make_task(root, "transpose", TASK_2D, TRANSPOSE)
    make_task(root, "divmod", TASK_1D, DIVMOD_GATHER)
    make_task(root, "not_triton", TASK_1D, NOT_TRITON)
    make_task(root, "two_launches", TASK_1D, TWO_LAUNCHES)
    make_task(root, "shifted", TASK_1D, SHIFTED_COPY)
    return root


# ---------------------------------------------------------------- tiers 1 + 3 agree

@pytest.fixture(scope="module")
def vadd_diagnosis(tasks) -> Diagnosis:
    return climb(tasks / "vadd")


@pytest.mark.slow
def test_ir_symptom_confirming_a_tier1_hypothesis_concludes_at_tier3(vadd_diagnosis):
    d = vadd_diagnosis
    assert d.verdict == "concluded"
    assert d.concluded_tier == 3
    assert tier_numbers(d) == [1, 2, 3]  # tier 4 is not climbed
    assert d.conclusion.rewrite_family == "add-divisibility-hints"
    assert d.conclusion.card_id == "cuda-runtime-stride-no-hints"
    assert "tritongpu-coalesce" in d.conclusion.passes
    assert d.conclusion.hotspot.kernel == "add_kernel"
    assert d.conclusion.hotspot.pass_arg == "tritongpu-coalesce"


@pytest.mark.slow
def test_conclusion_cites_both_the_hypothesis_and_the_ir_evidence(vadd_diagnosis):
    d = vadd_diagnosis
    cited = [d.finding(ref) for ref in d.conclusion.supporting]
    assert [(f.tier, f.card_id) for f in cited if f.tier == 1] == \
        [(1, "cuda-runtime-stride-no-hints")]
    ir = [f for f in cited if f.tier == 3]
    assert [f.evidence["symptom"] for f in ir] == ["scalar-global-loads"]
    assert any("stride: i32" in line for line in ir[0].evidence["ir"])
    # the unrelated no-autotune hypothesis is not what the IR confirmed
    assert all(f.card_id != "common-no-autotune" for f in cited)


@pytest.mark.slow
def test_report_shows_the_climb_the_hotspot_and_the_cards_rewrite(vadd_diagnosis):
    card = make_context(resolve_target(vadd_diagnosis.kernel_path)).cards[
        "cuda-runtime-stride-no-hints"]
    text = render_text(vadd_diagnosis, (card.before, card.after))
    assert "✓       tier 3 IR attribution" in text
    assert "skipped tier 2 profiling" in text
    assert "rewrite family: add-divisibility-hints" in text
    assert "tl.multiple_of" in text  # the card's after-code
    assert "pass tritongpu-coalesce" in text


# ---------------------------------------------------------------- climbing to tier 4

@pytest.mark.slow
def test_ir_symptom_no_hypothesis_explains_climbs_to_tier4_and_says_what_was_tried(tasks):
    d = climb(tasks / "transpose")
    assert tier_numbers(d) == [1, 2, 3, 4]
    ir = d.tier(3)
    assert [f.evidence["symptom"] for f in ir.findings] == ["convert-layout-survives"]
    assert d.tier(4).skipped and "knowledge base" in d.tier(4).skip_reason
    assert d.verdict == "inconclusive" and d.conclusion is None and d.concluded_tier is None
    assert len(d.tried) == 4
    assert "convert-layout-survives" in d.tried[2] and "no tier-1 hypothesis" in d.tried[2]
    assert d.tried[3].startswith("tier 4 compiler-source escalation: skipped")


@pytest.mark.slow
def test_tier4_over_an_indexed_compiler_concludes_with_cited_passages(tasks, tmp_path, embedder):
    from tests.escalate_fixtures.repo import index_fixture

    compiler = index_fixture(tmp_path, embedder)
    ctx = make_context(resolve_target(str(tasks / "shifted")), "cuda", Options(),
                       open_kb=lambda: (compiler.kb, compiler.registry))
    d = diagnose(ctx)
    assert [f.card_id for f in d.tier(1).findings] == ["common-no-autotune"]
    assert d.verdict == "concluded" and d.concluded_tier == 4
    # Both the start offset (3) and the mask bound (numel - 3) are unaligned; with the
    # kernel's facts, tier 4 may name either remedy, never an unrelated one.
    assert d.conclusion.rewrite_family in ("add-divisibility-hints", "even-k-specialization")
    assert d.conclusion.hotspot.kernel == "shifted_copy"  # the kernel, not the compiler file
    cited = {c.path for c in d.conclusion.citations}
    assert "lib/Dialect/TritonGPU/Transforms/Coalesce.cpp" in cited
    [esc] = d.escalations
    assert esc.symptom == "scalar-global-loads" and esc.pass_arg == "tritongpu-coalesce"
    assert esc.verdict == "answered" and esc.filters
    assert {ref.tier for ref in d.conclusion.supporting} == {3, 4}


# ---------------------------------------------------------------- inconclusive

@pytest.mark.slow
def test_narrow_load_fed_by_a_div_mod_index_confirms_the_div_mod_hypothesis(tasks):
    # `row = offs // n_cols` is a flattened row, not a strided fast axis; the narrow load at
    # the line that uses it is the div/mod hypothesis' doing (its `reaches` line)
    d = climb(tasks / "divmod", max_tier=3)
    assert tier_numbers(d) == [1, 2, 3]
    assert d.verdict == "concluded" and d.concluded_tier == 3
    assert d.conclusion.rewrite_family == "avoid-div-mod-index"
    assert not [f for f in d.tier(1).findings if f.card_id == "cuda-strided-fast-axis"]


def test_no_hypothesis_and_no_way_to_launch_stops_inconclusive_at_max_tier(tmp_path):
    kernel = tmp_path / "lonely.py"
    kernel.write_text(textwrap.dedent(TRANSPOSE))  # no task.py beside it: nothing to launch with
    ctx = make_context(resolve_target(str(kernel)), "cuda", Options(max_tier=3))
    d = diagnose(ctx)
    assert d.verdict == "inconclusive"
    assert d.tier(3).skipped and "no task.py beside it" in d.tier(3).skip_reason
    assert "The climb stops at --max-tier 3." in d.reason


# ---------------------------------------------------------------- stopping at tier 2

def bench_answer(task: str, candidate: str, nbytes: float, median_ms: float,
                 graph_ms: float | None = None) -> dict:
    """A runner bench answer in docs/runner.md's schema, one size, on a measured H200."""
    gbps = nbytes / (median_ms * 1e-3) / 1e9
    pct = round(100 * gbps / 4273.1, 3)
    timing = {"status": "ok", "cause": None, "median_ms": median_ms, "p20_ms": median_ms,
              "p80_ms": median_ms, "method": "cuda_graph" if graph_ms else "do_bench",
              "l2_flushed": not graph_ms, "do_bench_median_ms": graph_ms, "first_call_s": 0.4,
              "note": None,
              "roofline": {"gbps": round(gbps, 3), "tflops": None, "pct_of_bandwidth": pct,
                           "pct_of_compute": None, "bound": "memory",
                           "pct_of_bound_ceiling": pct}}
    point = {"size": "large", "dtype": "float32", "bytes": nbytes, "flops": nbytes / 12,
             "impls": {"candidate": timing, "eager": dict(timing, median_ms=median_ms * 1.2)},
             "candidate_vs_eager": 1.2, "candidate_vs_compile": None,
             "ratio_method": timing["method"]}
    return {"task": task, "candidate": candidate, "device": "cuda", "points": [point],
            "ceilings": {"device_name": "NVIDIA H200", "measured": True, "copy_gbps": 4273.1,
                         "matmul_tflops": {"float16": 670.4, "tf32": 356.1, "float32": 50.9}},
            "device_info": {"device": "cuda", "device_name": "NVIDIA H200",
                            "triton_interpret": False},
            "notes": []}


def climb_with_bench(folder: Path, tmp_path: Path, **bench) -> Diagnosis:
    runner_json = tmp_path / "bench.json"
    runner_json.write_text(json.dumps(bench_answer(folder.name, str(folder / "baseline.py"),
                                                   **bench)))
    return climb(folder, runner_json=runner_json)


def test_tier2_with_tier1_stops_before_ir_capture_on_a_launch_bound_kernel(tasks, tmp_path):
    pytest.importorskip("diagnose.profiling", reason="tier 2 (diagnose.profiling) not installed")
    # 3.1 us per call (11 us without graph replay) for 49 KB: launch overhead, not work
    d = climb_with_bench(tasks / "two_launches", tmp_path, nbytes=49152, median_ms=0.0031,
                         graph_ms=0.0112)
    assert d.verdict == "concluded"
    assert d.concluded_tier == 2
    assert tier_numbers(d) == [1, 2]  # no IR capture was needed
    assert d.conclusion.rewrite_family == "fuse-launches"
    assert d.conclusion.card_id == "common-unfused-launches"
    assert {ref.tier for ref in d.conclusion.supporting} == {1, 2}


def test_hotspot_at_its_ceiling_stops_at_tier2_without_tuning_advice(tasks, tmp_path):
    pytest.importorskip("diagnose.profiling", reason="tier 2 (diagnose.profiling) not installed")
    # 805 MB in 0.2 ms is 94% of the H200's measured copy bandwidth
    d = climb_with_bench(tasks / "vadd", tmp_path, nbytes=3 * 2**28, median_ms=0.2)
    assert tier_numbers(d) == [1, 2]  # the stride hint tier 1 suspects cannot matter here
    assert d.verdict == "inconclusive" and d.conclusion is None
    assert d.reason.startswith("The hotspot is near its ceiling")


# ---------------------------------------------------------------- broken kernels

@pytest.mark.slow
def test_kernel_that_does_not_compile_is_evidence_and_ends_the_climb(tasks):
    d = climb(tasks / "not_triton")
    assert tier_numbers(d) == [1, 2, 3]  # no escalation for a kernel that does not build
    failure = [f for f in d.tier(3).findings if f.kind == "compile-failure"]
    assert len(failure) == 1
    assert "arange" in " ".join(failure[0].evidence["message"])
    assert d.verdict == "inconclusive"
    assert d.reason.startswith("The kernel does not build")


def test_syntax_error_is_recorded_by_tier1_and_ends_the_climb(tmp_path):
    folder = make_task(tmp_path, "broken", TASK_1D, "import triton\ndef run(x:\n    pass\n")
    d = climb(folder)
    assert tier_numbers(d) == [1]
    [finding] = d.tier(1).findings
    assert finding.kind == "source-error"
    assert "line 2" in finding.message
    assert d.verdict == "inconclusive" and "does not build" in d.reason


# ---------------------------------------------------------------- targets and JSON

def test_unknown_task_is_one_sentence_naming_the_fix():
    with pytest.raises(DiagnosisError, match=r"No task or file 'no_such_task'; pass a task name"):
        resolve_target("no_such_task")


def test_task_name_resolves_to_its_baseline_under_kernels():
    target = resolve_target("add")
    assert target.kind == "task"
    assert target.kernel == ROOT / "kernels" / "add" / "baseline.py"
    assert target.launch_problem == ""


def test_kernelbench_file_with_a_separate_candidate_gets_a_launcher():
    fixtures = ROOT / "tests" / "runner_fixtures"
    target = resolve_target(str(fixtures / "kernelbench_relu.py"),
                            str(fixtures / "kernelbench_relu_new.py"))
    assert target.kind == "kernelbench"
    assert target.kernel.name == "kernelbench_relu_new.py"
    launcher = target.launch_file.read_text()
    assert "ModelNew = _candidate.ModelNew" in launcher and "get_inputs" in launcher
    with pytest.raises(DiagnosisError, match="has no ModelNew"):
        resolve_target(str(fixtures / "kernelbench_relu.py"))


def test_policy_climbs_past_a_skipped_tier_with_its_reason(tmp_path):
    folder = make_task(tmp_path, "t", TASK_1D, VADD_RUNTIME_STRIDE)
    ctx = make_context(resolve_target(str(folder)))
    from diagnose.ladder import tier1, tier2

    ctx.evidence += [tier1(ctx), tier2(ctx)]
    decision = decide(ctx)
    assert not decision.stop
    assert "--runner-json" in decision.reason


def test_diagnosis_json_round_trips(tmp_path):
    folder = make_task(tmp_path, "t", TASK_1D, VADD_RUNTIME_STRIDE)
    d = climb(folder, max_tier=2)
    again = Diagnosis.from_dict(json.loads(d.to_json()))
    assert again == d


# ---------------------------------------------------------------- the CLI

DOCUMENTED_KEYS = {"schema_version", "target", "target_kind", "backend", "kernel_path", "tiers",
                   "verdict", "reason", "concluded_tier", "conclusion", "tried", "escalations",
                   "timings", "versions", "created", "ranking"}


@pytest.mark.slow
def test_cli_diagnose_prints_documented_json_and_keeps_a_copy(tasks, tmp_path):
    home, out = tmp_path / "home", tmp_path / "d.json"
    env = dict(os.environ, PASSWISE_HOME=str(home))
    proc = subprocess.run(
        [sys.executable, "-m", "passwise", "diagnose", str(tasks / "vadd" / "baseline.py"),
         "--json", "--max-tier", "3", "--out", str(out)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert set(data) == DOCUMENTED_KEYS
    assert data["schema_version"] == 1
    tier2 = next(t for t in data["tiers"] if t["tier"] == 2)
    assert tier2["skipped"] and "runner JSON" in tier2["skip_reason"]
    assert data["concluded_tier"] == 3
    assert set(data["timings"]) == {"triage", "profile", "ir"}
    assert json.loads(out.read_text()) == data
    [kept] = list((home / "diagnoses").glob("vadd-*.json"))
    assert json.loads(kept.read_text()) == data


def test_cli_broken_file_exits_nonzero_without_traceback_and_keeps_the_record(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def run(:\n")
    env = dict(os.environ, PASSWISE_HOME=str(tmp_path / "home"))
    proc = subprocess.run([sys.executable, "-m", "passwise", "diagnose", str(bad)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "Verdict: inconclusive. The kernel does not build" in proc.stdout
    assert "no diagnosis could be made" in proc.stderr.splitlines()[-1]
    assert list((tmp_path / "home" / "diagnoses").glob("bad-*.json"))


def test_cli_unknown_target_is_one_line_on_stderr(tmp_path):
    env = dict(os.environ, PASSWISE_HOME=str(tmp_path / "home"))
    proc = subprocess.run([sys.executable, "-m", "passwise", "diagnose", "no_such_task"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0
    assert proc.stderr.startswith("passwise: No task or file 'no_such_task'")


def test_cli_runner_json_that_is_not_a_runner_answer_is_one_sentence(tasks, tmp_path):
    bad = tmp_path / "bench.json"
    bad.write_text(json.dumps({"hello": "world"}))
    env = dict(os.environ, PASSWISE_HOME=str(tmp_path / "home"))
    proc = subprocess.run([sys.executable, "-m", "passwise", "diagnose", str(tasks / "vadd"),
                           "--runner-json", str(bad)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0
    assert "is neither a runner bench answer" in proc.stderr


# ---------------------------------------------------------------- where a symptom confirms

def _hypothesis(card: str, line: int, end: int | None = None, kernel: str | None = None,
                function: str = "k") -> Finding:
    facts = {"kernel": kernel} if kernel else {}
    return Finding(tier=1, kind="pattern", card_id=card, rewrite_family=card + "-family",
                   message="", confidence=0.6,
                   location={"function": function, "line": line, "end_line": end or line},
                   evidence={"facts": facts})


def _narrow(line_cards: dict[str, list[str]]) -> Finding:
    cards = sorted({c for cs in line_cards.values() for c in cs})
    return Finding(tier=3, kind="ir-symptom", card_id="", rewrite_family="", message="",
                   confidence=0.9, location={"function": "k", "line": None},
                   evidence={"symptom": "scalar-global-loads", "explains_cards": cards,
                             "line_cards": line_cards, "weight": 2})


def test_a_symptom_confirms_an_in_kernel_hypothesis_only_at_that_hypothesis_lines():
    fact = _narrow({"12": ["cuda-runtime-stride-no-hints"]})
    assert confirms(fact, _hypothesis("cuda-runtime-stride-no-hints", 12))
    assert not confirms(fact, _hypothesis("cuda-runtime-stride-no-hints", 13))
    # a loop statement spans its body
    assert confirms(fact, _hypothesis("cuda-runtime-stride-no-hints", 11, end=12))


def test_a_store_idiom_is_not_confirmed_by_a_fact_about_loads_only():
    store = _hypothesis("cuda-data-dependent-mask", 12)
    store.evidence["snippet"] = "tl.store(y_ptr + offs, v, mask=keep)"
    loads = _narrow({"12": ["cuda-data-dependent-mask"]})
    loads.message = "1 of 1 global loads are <= 32-bit (narrow loads at lines 12)"
    assert not confirms(loads, store)
    stores = _narrow({"12": ["cuda-data-dependent-mask"]})
    stores.message = "global stores are <= 32-bit at lines 12"
    assert confirms(stores, store)
    # a load idiom is confirmed by the same load fact
    load = _hypothesis("cuda-data-dependent-mask", 12)
    load.evidence["snippet"] = "x = tl.load(x_ptr + offs, mask=keep)"
    assert confirms(loads, load)


def test_a_launch_site_hypothesis_is_confirmed_anywhere_in_the_kernel_it_launches():
    fact = _narrow({"11": ["common-block-size"]})
    launch = _hypothesis("common-block-size", 30, kernel="k", function="run")
    assert confirms(fact, launch)
    assert not confirms(fact, _hypothesis("common-block-size", 30, kernel="other",
                                          function="run"))


def test_tier4_answers_that_disagree_follow_the_costliest_symptom():
    from diagnose.escalation.tier import _merged
    from diagnose.evidence import Finding, TierResult

    def answer(family: str) -> TierResult:
        return TierResult(4, "compiler-source escalation",
                          [Finding(tier=4, kind="pass-source", card_id="", rewrite_family=family,
                                   message=family, confidence=0.85)], sufficient=True)

    merged = _merged([("convert-layout-survives", answer("layout-friendly-shapes")),
                      ("dot-without-wgmma", answer("block-size-tuning"))], [])
    assert merged.sufficient
    assert merged.findings[0].rewrite_family == "block-size-tuning"
    assert "dot-without-wgmma costs the kernel most" in merged.reason
    tie = _merged([("scalar-global-loads", answer("add-divisibility-hints")),
                   ("discrete-mask-to-select", answer("contiguous-load-gather"))], [])
    assert not tie.sufficient  # equally costly symptoms with different answers: climb no further


@pytest.mark.slow
def test_cli_escalate_with_a_kernel_reads_its_facts(tasks, tmp_path, embedder):
    # the service agents call: with --kernel, the capture's facts reach the rewrite
    from tests.escalate_fixtures.repo import index_fixture

    index_fixture(tmp_path, embedder)  # the fixture indexes into corpus set "default"
    env = dict(os.environ, PASSWISE_HOME=str(tmp_path / "home"), PASSWISE_CORPUS_SET="default")
    base = [sys.executable, "-m", "passwise", "escalate", "--symptom", "scalar-global-loads",
            "--json"]
    plain = subprocess.run(base, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    with_kernel = subprocess.run(base + ["--kernel", str(tasks / "shifted")], capture_output=True,
                                 text=True, env=env, cwd=ROOT, timeout=300)
    assert plain.returncode == 0 and with_kernel.returncode == 0, with_kernel.stderr
    assert not json.loads(plain.stdout)["rewrite"]["kernel_check"]
    check = json.loads(with_kernel.stdout)["rewrite"]["kernel_check"]
    assert "n" in check or "start" in check  # the unaligned bound or offset of `shifted_copy`
    missing = subprocess.run(base + ["--kernel", str(tmp_path / "nope.py")], capture_output=True,
                             text=True, env=env, cwd=ROOT, timeout=300)
    assert missing.returncode == 1 and "Traceback" not in missing.stderr
