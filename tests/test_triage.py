"""Tier 1 pattern triage: every detector fires on its positive fixture at the marked line and
stays quiet on its negative one; pattern cards are complete and cite real passes and files."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from diagnose.evidence import Finding, TierResult
from diagnose.triage import TriageError, load_cards, triage, triage_file
from diagnose.triage.detectors import all_detectors

FIXTURES = Path(__file__).parent / "triage_fixtures"
ROOT = Path(__file__).resolve().parents[1]
MIRRORS = {
    "triton-lang/triton-ascend": Path("/work/.mirror/triton-lang+triton-ascend/repo"),
    "Ascend/AscendNPU-IR": Path("/work/.mirror/Ascend+AscendNPU-IR/repo"),
    "Ascend/msopprof": Path("/work/.mirror/Ascend+msopprof/repo"),
}
# Detectors shared by both backends bind a CUDA card and an Ascend card.
ASCEND_TWIN = {
    "cuda-strided-fast-axis": "ascend-strided-fast-axis",
    "cuda-int64-index": "ascend-int64-vector-arith",
    "cuda-div-mod-index": "ascend-div-mod-unstructured",
    "cuda-atomic-reduction": "ascend-atomic-reduction",
    "cuda-scalar-element-loop": "ascend-scalar-element-loop",
    "cuda-reduce-strided-axis": "ascend-reduce-strided-axis",
    "cuda-broadcast-matmul": "ascend-broadcast-matmul",
    "cuda-small-grid-underfill": "ascend-small-grid-underfill",
    "cuda-fp32-dot": "ascend-fp32-dot",
    "cuda-global-accumulator": "ascend-global-accumulator",
    "cuda-matvec-per-row": "ascend-matvec-per-row",
}


def _header(text: str, key: str) -> list[str]:
    return re.findall(rf"^# {key}: (\S+)", text, flags=re.MULTILINE)


def _expected(text: str) -> list[tuple[str, int]]:
    return [(m.group(1), number) for number, line in enumerate(text.splitlines(), start=1)
            if (m := re.search(r"# expect: (\S+)", line))]


def _hits(result: TierResult) -> set[tuple[str, int]]:
    return {(f.card_id, f.location["line"]) for f in result.findings if f.location}


def _fixture(name: str) -> tuple[str, str]:
    text = (FIXTURES / name).read_text()
    return text, _header(text, "backend")[0]


POSITIVES = sorted(p.name for p in FIXTURES.glob("*_pos.py"))
NEGATIVES = sorted(p.name for p in FIXTURES.glob("*_neg.py"))


@pytest.mark.parametrize("name", POSITIVES)
def test_detector_flags_marked_line_in_positive_fixture(name: str) -> None:
    text, backend = _fixture(name)
    expected = _expected(text)
    assert expected, f"{name} marks no expected finding"
    hits = _hits(triage(text, name, backend))
    for card, line in expected:
        assert (card, line) in hits, f"{card} not found at line {line}; got {sorted(hits)}"


@pytest.mark.parametrize("name", NEGATIVES)
def test_detector_stays_quiet_on_negative_fixture(name: str) -> None:
    text, backend = _fixture(name)
    absent = _header(text, "absent")
    assert absent, f"{name} names no card that must be absent"
    cards = {f.card_id for f in triage(text, name, backend).findings}
    assert not cards & set(absent), f"unexpected {sorted(cards & set(absent))}"


@pytest.mark.parametrize("cuda_card", sorted(ASCEND_TWIN))
def test_shared_detector_reports_the_ascend_card_on_ascend(cuda_card: str) -> None:
    name = next(n for n in POSITIVES if f"expect: {cuda_card}" in (FIXTURES / n).read_text())
    text = (FIXTURES / name).read_text()
    lines = [line for card, line in _expected(text) if card == cuda_card]
    hits = _hits(triage(text, name, "ascend"))
    assert all((ASCEND_TWIN[cuda_card], line) in hits for line in lines)
    assert not any(card.startswith("cuda-") for card, _ in hits)


def test_every_detector_has_positive_and_negative_fixture() -> None:
    texts = {n: (FIXTURES / n).read_text() for n in POSITIVES + NEGATIVES}
    covered_pos = {card for n in POSITIVES for card, _ in _expected(texts[n])}
    covered_neg = {card for n in NEGATIVES for card in _header(texts[n], "absent")}
    for card in load_cards():
        if card.detector:
            twin_of = {v: k for k, v in ASCEND_TWIN.items()}.get(card.id, card.id)
            assert twin_of in covered_pos, f"no positive fixture for {card.id}"
            assert twin_of in covered_neg, f"no negative fixture for {card.id}"


def test_triage_on_ascend_finds_ub_overflow_with_byte_estimate() -> None:
    text, _ = _fixture("ub_tile_pos.py")
    finding = next(f for f in triage(text, "k.py", "ascend").findings
                   if f.card_id == "ascend-ub-overflow")
    # two 32768-element fp32 tiles = 256 KB, above the 192 KB UB
    assert finding.evidence["facts"]["estimated_bytes"] == 2 * 32768 * 4
    assert finding.confidence >= 0.75
    assert "hivm-plan-memory" in finding.passes


# ---- cards ------------------------------------------------------------------------------

def _pass_arguments() -> set[str]:
    args: set[str] = set()
    for mirror in MIRRORS.values():
        if not mirror.exists():
            continue
        files = subprocess.run(["git", "-C", str(mirror), "ls-tree", "-r", "--name-only", "HEAD"],
                               capture_output=True, text=True, check=True).stdout.split()
        for path in (f for f in files if f.endswith("Passes.td")):
            text = subprocess.run(["git", "-C", str(mirror), "show", f"HEAD:{path}"],
                                  capture_output=True, text=True, check=True).stdout
            args |= set(re.findall(r'Pass<\s*(?:/\*[^*]*\*/\s*)?"([^"]+)"', text))
    return args


def test_cards_are_complete_and_counted_per_backend() -> None:
    cards = load_cards()
    assert len({c.id for c in cards}) == len(cards)
    assert sum(c.backend == "cuda" for c in cards) >= 20
    assert sum(c.backend == "ascend" for c in cards) >= 10
    for card in cards:
        assert card.source is not None and card.source.stem == card.id
        assert card.backend in {"cuda", "ascend", "common"}
        assert card.rewrite_family and re.fullmatch(r"[a-z0-9-]+", card.rewrite_family)
        assert card.title and card.symptom and card.expected_effect and card.rewrite
        assert card.confirming_evidence and card.docs
        assert card.before.strip() and card.after.strip() and card.before != card.after


def test_card_detectors_exist_and_bind_one_card_per_backend() -> None:
    detectors = all_detectors()
    for backend in ("cuda", "ascend"):
        bound = [c.detector for c in load_cards(backend) if c.detector]
        assert len(bound) == len(set(bound)), f"a detector binds two {backend} cards"
        for card in load_cards(backend):
            if card.detector:
                assert card.detector in detectors, f"{card.id}: unknown detector"
                if card.backend != "common":
                    assert card.backend in detectors[card.detector].backends


def test_card_passes_are_real_pass_arguments() -> None:
    if not MIRRORS["triton-lang/triton-ascend"].exists():
        pytest.skip("triton-ascend mirror not present")
    known = _pass_arguments()
    for card in load_cards():
        unknown = set(card.passes) - known
        assert not unknown, f"{card.id}: {sorted(unknown)} are not pass arguments"


def test_card_doc_citations_name_existing_files() -> None:
    for card in load_cards():
        for doc in card.docs:
            mirror = MIRRORS.get(doc.repo)
            assert mirror is not None, f"{card.id}: unknown repo {doc.repo}"
            if not mirror.exists():
                continue
            found = subprocess.run(["git", "-C", str(mirror), "cat-file", "-e",
                                    f"HEAD:{doc.path}"], capture_output=True)
            assert found.returncode == 0, f"{card.id}: {doc.repo}:{doc.path} does not exist"


def test_broken_card_file_raises_one_sentence(tmp_path: Path) -> None:
    shutil.copy(ROOT / "corpora/patterns/common-block-size.toml", tmp_path / "ok.toml")
    (tmp_path / "bad.toml").write_text('id = "bad"\ntitle = "no other fields"\n')
    with pytest.raises(TriageError, match=r"lacks .*symptom.*; add the fields\.$"):
        load_cards(cards_dir=tmp_path)


# ---- hostile input and the evidence schema ------------------------------------------------

def test_syntax_error_gives_one_clear_sentence() -> None:
    with pytest.raises(TriageError) as err:
        triage("@triton.jit\ndef k(x:\n    pass\n", "bad.py")
    message = str(err.value)
    assert message.startswith("bad.py is not valid Python (line ")
    assert "\n" not in message and "Traceback" not in message


def test_huge_source_is_refused_before_parsing() -> None:
    with pytest.raises(TriageError, match="has 2400000 characters, more than the 1000000"):
        triage("x = 1\n" * 400_000, "huge.py")


def test_null_bytes_and_deep_nesting_are_refused_cleanly() -> None:
    with pytest.raises(TriageError, match="cannot be parsed"):
        triage("x = 1\x00\n", "nul.py")
    with pytest.raises(TriageError):
        triage("x = " + "(" * 5000 + "1" + ")" * 5000 + "\n", "deep.py")


def test_unknown_backend_and_missing_file_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(TriageError, match="Unknown backend 'rocm'"):
        triage("x = 1\n", backend="rocm")
    with pytest.raises(TriageError, match="Cannot read kernel file"):
        triage_file(tmp_path / "missing.py")


def test_source_without_kernels_is_skipped_not_failed() -> None:
    result = triage("import torch\n\ndef run(x):\n    return x\n", "plain.py")
    assert result.skipped and "no @triton.jit" in result.skip_reason
    assert result.findings == []


def test_kernel_is_parsed_not_executed(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    source = (f"open({str(marker)!r}, 'w').write('x')\nimport triton\n"
              "@triton.jit\ndef k(x_ptr, BLOCK: tl.constexpr):\n    pass\n")
    triage(source, "k.py")
    assert not marker.exists()


def test_tier_result_round_trips_through_json() -> None:
    text, backend = _fixture("multi_launch_pos.py")
    result = triage(text, "multi_launch_pos.py", backend)
    again = TierResult.from_json(result.to_json())
    assert again == result
    assert all(isinstance(f, Finding) for f in again.findings)
    assert again.findings[0].tier == 1 and again.findings[0].kind == "pattern"


def test_tier1_is_not_sufficient_when_families_compete() -> None:
    text, backend = _fixture("multi_launch_pos.py")
    result = triage(text, "m.py", backend)
    assert not result.sufficient
    assert result.reason


def test_tier1_alone_is_sufficient_only_for_a_static_certainty() -> None:
    # A non-power-of-two tile cannot compile: certain from the source, but the detector still
    # asks for the compile check, so tier 1 reports it without declaring itself sufficient.
    text, backend = _fixture("block_size_pos.py")
    result = triage(text, "b.py", backend)
    top = result.findings[0]
    assert top.card_id == "common-block-size" and top.confidence >= 0.9
    assert not result.sufficient and "tier 1 cannot see" in result.reason


def test_findings_are_sorted_by_confidence_and_carry_card_passes() -> None:
    text, backend = _fixture("num_stages_pos.py")
    findings = triage(text, "n.py", backend).findings
    assert [f.confidence for f in findings] == sorted((f.confidence for f in findings),
                                                      reverse=True)
    stage = next(f for f in findings if f.card_id == "cuda-kloop-unpipelined")
    assert stage.rewrite_family == "pipeline-stages"
    assert "tritongpu-pipeline" in stage.passes
    assert stage.evidence["snippet"].startswith("kloop[(1,)]")


def test_transposed_tile_is_a_weaker_hypothesis_on_cuda_than_on_ascend() -> None:
    text, _ = _fixture("strided_access_pos.py")
    line = max(line for _, line in _expected(text))
    cuda = next(f for f in triage(text, "t.py", "cuda").findings if f.location["line"] == line
                and f.card_id == "cuda-strided-fast-axis")
    ascend = next(f for f in triage(text, "t.py", "ascend").findings
                  if f.location["line"] == line and f.card_id == "ascend-strided-fast-axis")
    assert cuda.evidence["facts"]["transposed"] is True
    assert cuda.confidence < ascend.confidence


def test_loop_that_only_stores_one_result_per_iteration_is_a_weak_scalar_loop() -> None:
    source = '''
import triton
import triton.language as tl

@triton.jit
def topk(x_ptr, val_ptr, N, K: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + cols, mask=cols < N, other=-float("inf"))
    for i in range(K):
        tl.store(val_ptr + i, tl.max(x, axis=0))
        x = tl.where(cols == tl.argmax(x, axis=0), -float("inf"), x)
'''
    loops = [f for f in triage(source, "topk.py").findings
             if f.card_id == "cuda-scalar-element-loop"]
    assert [f.location["line"] for f in loops] == [9]
    assert loops[0].confidence <= 0.3


# ---------------------------------------------------------------- calibration

COLUMN_WALK = '''
import triton, triton.language as tl

@triton.jit
def col_kernel(x_ptr, out_ptr, M, stride_x, BLOCK: tl.constexpr):
    rows = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + rows * stride_x + tl.program_id(0), mask=rows < M)
    tl.store(out_ptr + rows, x, mask=rows < M)

def run(x, out):
    M, N = x.shape
    col_kernel[(N, triton.cdiv(M, 256))](x, out, M, x.stride(0), BLOCK=256)
'''


def _cards_at(result: TierResult) -> dict[str, float]:
    best: dict[str, float] = {}
    for f in result.findings:
        best[f.card_id] = max(best.get(f.card_id, 0.0), f.confidence)
    return best


def test_row_stride_passed_as_stride0_of_a_matrix_on_the_fast_axis_is_strided():
    found = _cards_at(triage(COLUMN_WALK, "col.py", "cuda"))
    assert found.get("cuda-strided-fast-axis", 0) >= 0.5


def test_stride0_of_a_vector_is_not_taken_for_a_row_stride():
    one_d = COLUMN_WALK.replace("M, N = x.shape", "M, N = x.numel(), 1")
    assert "cuda-strided-fast-axis" not in _cards_at(triage(one_d, "col.py", "cuda"))


TWO_LAUNCHES = '''
import torch, triton, triton.language as tl

@triton.jit
def first(x_ptr, t_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(t_ptr + o, tl.load(x_ptr + o, mask=o < n) * 2, mask=o < n)

@triton.jit
def second(t_ptr, y_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + o, tl.load(t_ptr + o, mask=o < n) + 1, mask=o < n)

def run(x):
    tmp = torch.empty_like(x)
    y = torch.empty_like(x)
    first[(triton.cdiv(x.numel(), 1024),)](x, tmp, x.numel(), BLOCK=1024)
    second[(triton.cdiv(x.numel(), 1024),)](tmp, y, x.numel(), BLOCK=1024)
    return RETURNED
'''


def test_a_scratch_buffer_between_launches_is_a_stronger_fusion_hint_than_a_returned_one():
    scratch = _cards_at(triage(TWO_LAUNCHES.replace("RETURNED", "y"), "k.py", "cuda"))
    returned = _cards_at(triage(TWO_LAUNCHES.replace("RETURNED", "y, tmp"), "k.py", "cuda"))
    assert scratch["common-unfused-launches"] > returned["common-unfused-launches"]
    assert scratch["common-unfused-launches"] > scratch.get("common-no-autotune", 0)


ASCEND_ROWS = '''
import torch, triton, triton.language as tl

@triton.jit
def row_kernel(x_ptr, out_ptr, V, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride_row + cols, mask=cols < V, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))

def run(x):
    M, V = x.shape
    out = torch.empty(M, device=x.device)
    row_kernel[(M,)](x, out, V, x.stride(0), BLOCK=triton.next_power_of_2(V))
    return out
'''


def test_ascend_whole_row_tile_outranks_the_generic_growing_grid():
    found = _cards_at(triage(ASCEND_ROWS, "rows.py", "ascend"))
    assert found["ascend-ub-overflow"] > found["ascend-grid-exceeds-cores"]
    assert found["ascend-grid-exceeds-cores"] > found["common-no-autotune"]


def test_ascend_literal_grid_confidence_grows_with_the_rounds_it_costs():
    few = ASCEND_ROWS.replace("row_kernel[(M,)]", "row_kernel[(120,)]")
    many = ASCEND_ROWS.replace("row_kernel[(M,)]", "row_kernel[(32768,)]")
    assert (_cards_at(triage(few, "r.py", "ascend"))["ascend-grid-exceeds-cores"]
            < _cards_at(triage(many, "r.py", "ascend"))["ascend-grid-exceeds-cores"])


def test_a_grid_name_assigned_twice_before_the_launch_is_read_not_crashed_on() -> None:
    # the second assignment used to be compared against the first one's tuple (AttributeError)
    source = '''
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 0.0, mask=offs < n)

def run(x):
    grid = (1,)
    grid = (triton.cdiv(x.numel(), 1024),)
    k[grid](x, x.numel(), BLOCK=1024)
'''
    cards = {f.card_id for f in triage(source, "k.py", "ascend").findings}
    assert "ascend-grid-exceeds-cores" in cards
