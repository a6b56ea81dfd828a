"""The seeded-defect cases' held-out split is the frozen hash rule, and every case.toml is complete."""

from __future__ import annotations

import hashlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

DEFECTS = Path(__file__).resolve().parent.parent / "bench" / "defects"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, DEFECTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


sys.path.insert(0, str(DEFECTS))
cases_mod = _load("cases")
split = _load("split")
CASES = cases_mod.load_cases()


def test_rule_is_sha256_mod_3() -> None:
    for name in ("softmax-num-warps-1", "gemm-fp32-ieee-dot", "x"):
        assert split.held_out_by_hash(name) == (int(hashlib.sha256(name.encode()).hexdigest(), 16) % 3 == 0)
    # the rule splits a realistic name set roughly in thirds
    names = [c.name for c in CASES] + [f"case-{i}" for i in range(300)]
    share = sum(map(split.held_out_by_hash, names)) / len(names)
    assert 0.25 < share < 0.42


@pytest.mark.parametrize("case", [c for c in CASES if c.model], ids=lambda c: c.name)
def test_new_case_held_out_follows_hash(case) -> None:
    # a spent case (opened to fix the diagnosis) is development whatever its hash says
    assert case.held_out == split.expected_held_out(case), (
        f"{case.name}: set held_out = {str(split.expected_held_out(case)).lower()} (split.py)")
    if case.spent:
        assert split.held_out_by_hash(case.name), f"{case.name} was never held out: nothing to spend"


def test_spending_is_chosen_by_a_salted_hash_that_takes_about_half() -> None:
    names = [c.name for c in CASES if c.model and split.held_out_by_hash(c.name)]
    share = sum(split.spend_by_hash(n, "spend-2026-12-01") for n in names) / len(names)
    assert 0.25 < share < 0.75
    assert split.spend_by_hash("x", "a") == split.spend_by_hash("x", "a")  # deterministic


def test_old_cases_are_development() -> None:
    old = [c for c in CASES if not c.model]
    assert len(old) >= 29
    assert [c.name for c in old if c.held_out] == []


def test_new_cases_name_their_model_and_are_runnable() -> None:
    for case in (c for c in CASES if c.model):
        assert case.slow.is_file() and case.fixed.is_file(), case.name
        assert (case.task_dir / "task.py").is_file(), f"{case.name}: no task at {case.task_dir}"
        assert case.backend in ("cuda", "ascend") and case.expected_family, case.name


def test_split_check_cli_agrees(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(DEFECTS / "split.py"), "--check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert f"{len(CASES)} cases" in out.stdout


def test_disagreement_is_reported() -> None:
    case = next(c for c in CASES if c.name == "softmax-num-warps-1")
    from dataclasses import replace
    wrong = replace(case, model="somewhere", held_out=not split.held_out_by_hash(case.name))
    [sentence] = split.disagreements([wrong])
    assert sentence.startswith("softmax-num-warps-1: held_out =")
