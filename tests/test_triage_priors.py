"""Tier 1 reads the families' optimize win record (PASSWISE_HOME/learned-cards/priors.json, what
`passwise optimize --synthesize` writes) and shifts its hypothesis confidences by a bounded amount;
without the file nothing changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from diagnose.ladder import Options, diagnose, make_context
from diagnose.optimize.runs import RunRecord
from diagnose.optimize.synthesis import synthesize, write_cards
from diagnose.target import DiagnosisError, resolve_target
from diagnose.triage.priors import MAX_SHIFT, PriorsError, load_priors, shift_for
from diagnose.triage.tier import SUFFICIENT_CONFIDENCE, triage

ROOT = Path(__file__).resolve().parent.parent
GELU = ROOT / "bench" / "defects" / "gelu-block-64" / "slow.py"  # block-size-tuning 0.6, autotune 0.45


def _home(tmp_path: Path, record: dict, cards: dict[str, str] | None = None) -> Path:
    folder = tmp_path / "learned-cards"
    folder.mkdir(parents=True)
    entries = {fam: {"proposed": p, "accepted": a, "tasks": [], "win_rate": a / p, "geomean_win": None}
               for fam, (p, a) in record.items()}
    (folder / "priors.json").write_text(json.dumps(entries))
    for name, text in (cards or {}).items():
        (folder / f"{name}.toml").write_text(text)
    return tmp_path


LEARNED = ('id = "learned-cuda-autotune-configs-add-autotune-configs"\nstatus = "learned"\n'
           'accepted_by = ""\nrewrite_family = "autotune-configs"\n')


PAIR = ("block-size-tuning", "autotune-configs")  # the two families the priors below reorder


def _families(result) -> list[str]:
    """The order of the pair's findings (other hypotheses about the kernel, e.g. its exact erf, left out)."""
    return [f.rewrite_family for f in result.findings if f.rewrite_family in PAIR]


def test_without_priors_the_ranking_is_the_static_one(tmp_path):
    assert load_priors(tmp_path) == {} and load_priors(None) == {}
    plain = triage(GELU.read_text(), str(GELU))
    read = triage(GELU.read_text(), str(GELU), priors=load_priors(tmp_path))
    assert _families(read)[:2] == _families(plain)[:2] == ["block-size-tuning", "autotune-configs"]
    assert [f.confidence for f in read.findings] == [f.confidence for f in plain.findings]
    assert not any("prior" in f.evidence for f in read.findings)


def test_learned_priors_reorder_the_hypotheses(tmp_path):
    home = _home(tmp_path, {"autotune-configs": (4, 4), "block-size-tuning": (5, 0)}, {"learned": LEARNED})
    result = triage(GELU.read_text(), str(GELU), priors=load_priors(home))
    assert _families(result)[:2] == ["autotune-configs", "block-size-tuning"]
    top, second = (next(f for f in result.findings if f.rewrite_family == fam) for fam in PAIR[::-1])
    assert top.confidence == pytest.approx(0.45 + MAX_SHIFT) and second.confidence == pytest.approx(0.6 - MAX_SHIFT)
    prior = top.evidence["prior"]
    assert prior["source"] == "learned" and prior["static_confidence"] == 0.45 and prior["win_rate"] == 1.0
    assert prior["learned_cards"] == ["learned-cuda-autotune-configs-add-autotune-configs"]  # still learned
    assert "Learned priors from optimize runs shifted 2" in result.reason


def test_the_ladder_reads_priors_from_the_home(tmp_path):
    home = _home(tmp_path, {"autotune-configs": (4, 4), "block-size-tuning": (4, 0)})
    target = resolve_target(str(ROOT / "kernels" / "gelu"), str(GELU))
    with_home = diagnose(make_context(target, "cuda", Options(max_tier=1, home=home)))
    without = diagnose(make_context(target, "cuda", Options(max_tier=1)))
    first = [t for t in with_home.tiers if t.tier == 1][0]
    plain = [t for t in without.tiers if t.tier == 1][0]
    assert _families(first)[0] == "autotune-configs"
    assert _families(plain)[0] == "block-size-tuning"


def test_the_shift_is_bounded_and_weighted_by_rounds():
    assert shift_for(4, 4) == MAX_SHIFT and shift_for(100, 0) == -MAX_SHIFT
    assert shift_for(1, 1) == pytest.approx(MAX_SHIFT / 4)  # one round is weak evidence
    assert shift_for(10, 5) == 0 and shift_for(0, 0) == 0


def test_a_prior_alone_never_makes_tier_one_sufficient(tmp_path):
    # embedding-grid-stride: split-work-across-programs at 0.75, just under the sufficiency bar
    src = (ROOT / "bench" / "defects" / "embedding-grid-stride-64-programs" / "slow.py").read_text()
    home = _home(tmp_path, {"split-work-across-programs": (9, 9)})
    result = triage(src, "k.py", priors=load_priors(home))
    top = result.findings[0]
    assert top.rewrite_family == "split-work-across-programs" and top.confidence < SUFFICIENT_CONFIDENCE
    assert top.evidence["prior"]["static_confidence"] == 0.75 and not result.sufficient


def test_an_unreadable_priors_file_is_one_sentence(tmp_path):
    (tmp_path / "learned-cards").mkdir()
    (tmp_path / "learned-cards" / "priors.json").write_text("{not json")
    with pytest.raises(PriorsError, match=r"cannot be read .* synthesize again\.$"):
        load_priors(tmp_path)
    target = resolve_target(str(ROOT / "kernels" / "gelu"), str(GELU))
    with pytest.raises(DiagnosisError, match="priors.json cannot be read"):
        diagnose(make_context(target, "cuda", Options(max_tier=1, home=tmp_path)))


def _run(home: Path, task: str, family: str, verdict: str) -> RunRecord:
    """A run whose round 1 proposed one candidate of `family` and got `verdict`."""
    rec = RunRecord.create(home, task, "kernel\n", {"backend": "cuda", "task_path": "", "rounds": 1})
    zero, one = rec.new_round(0), rec.new_round(1)
    zero.write("kernel.py", "kernel\n")
    zero.write("verdict.json", {"verdict": "baseline"})
    one.write("round.json", {"round": 1, "parent": 0})
    one.write("proposal.json", {"proposer": "rules", "family": family, "card_id": "c",
                                "transformation": "add_autotune_configs",
                                "candidates": [{"id": "00", "description": "autotuned"}]})
    one.write("kernel.diff", "+@triton.autotune\n")
    one.write("verdict.json", {"verdict": verdict, "candidate": "00", "ratio": 1.3, "reason": "r"})
    return rec


def test_synthesized_priors_reach_tier_one_and_a_persons_acceptance_survives(tmp_path):
    runs = [_run(tmp_path, t, "autotune-configs", "accepted") for t in ("gelu", "silu", "add", "mean")]
    runs += [_run(tmp_path, t, "block-size-tuning", "rejected") for t in ("gelu", "silu", "add", "mean")]
    folder = tmp_path / "learned-cards"
    [card_path] = write_cards(synthesize(runs), folder, runs)  # what `optimize --synthesize` writes
    result = triage(GELU.read_text(), str(GELU), priors=load_priors(tmp_path))
    assert _families(result)[:2] == ["autotune-configs", "block-size-tuning"]
    card_id = card_path.stem
    assert result.findings[0].evidence["prior"]["learned_cards"] == [card_id]
    # a person accepts the card; synthesizing again keeps that, and it is no longer "learned"
    card_path.write_text(card_path.read_text().replace('accepted_by = ""', 'accepted_by = "lead"'))
    write_cards(synthesize(runs), folder, runs)
    assert 'status = "accepted"\naccepted_by = "lead"' in card_path.read_text()
    assert load_priors(tmp_path)["autotune-configs"].learned_cards == []
