"""Tier 1 reads meaning, not one spelling: every positive triage fixture, rewritten the ways other
authors write the same code (bench/defects/spellings.py), still yields its expected cards, and
every negative fixture still yields none of its absent ones."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from diagnose.triage import triage
from diagnose.triage.detectors.model import POW2_UNKNOWN, evaluate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench" / "defects"))

from spellings import REWRITES, respell  # noqa: E402

FIXTURES = Path(__file__).parent / "triage_fixtures"


def _cards(text: str, name: str, backend: str) -> set[str]:
    return {f.card_id for f in triage(text, name, backend).findings}


def _backend(text: str) -> str:
    return re.findall(r"^# backend: (\S+)", text, flags=re.MULTILINE)[0]


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*_pos.py")))
def test_positive_fixture_keeps_its_cards_under_every_respelling(name: str) -> None:
    text = (FIXTURES / name).read_text()
    expected = set(re.findall(r"# expect: (\S+)", text))
    for rewrite, mutant in respell(text, name, _backend(text)):
        missing = expected - _cards(mutant, name, _backend(text))
        assert not missing, f"{rewrite} hides {sorted(missing)} in {name}"


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*_neg.py")))
def test_negative_fixture_stays_quiet_under_every_respelling(name: str) -> None:
    text = (FIXTURES / name).read_text()
    absent = set(re.findall(r"^# absent: (\S+)", text, flags=re.MULTILINE))
    for rewrite, mutant in respell(text, name, _backend(text)):
        wrong = absent & _cards(mutant, name, _backend(text))
        assert not wrong, f"{rewrite} makes {sorted(wrong)} appear in {name}"


def test_every_rewrite_applies_to_some_fixture_and_changes_it() -> None:
    applied = {rewrite for p in FIXTURES.glob("*.py") for rewrite, mutant in
               respell(p.read_text(), p.name, _backend(p.read_text())) if mutant != ast.unparse(ast.parse(p.read_text()))}
    assert applied == set(REWRITES), f"never applied: {sorted(set(REWRITES) - applied)}"


@pytest.mark.parametrize("spelling", ["1 << (n - 1).bit_length()", "2 ** math.ceil(math.log2(n))",
                                      "triton.next_power_of_2(n)"])
def test_a_power_of_two_of_a_runtime_size_is_known_as_one(spelling: str) -> None:
    assert evaluate(ast.parse(spelling, mode="eval").body, {}) == POW2_UNKNOWN


def test_a_shift_or_power_of_other_bases_is_not_taken_for_one() -> None:
    for spelling in ("3 << n", "4 ** n", "x << 2"):
        assert evaluate(ast.parse(spelling, mode="eval").body, {}) is None


MODEL_SRC = '''
import triton
import triton.language as tl


@triton.jit
def _body(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    x_ptr += tl.program_id(1) * n
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["n"])})
@triton.autotune(configs=[triton.Config({}, num_warps=2)], key=[])
@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    _body(x_ptr, y_ptr, n, BLOCK)


def run(x, y):
    launch = copy_kernel[(1, 4)]
    launch(x, y, 96)
'''


def test_the_model_reads_aliased_launches_heuristics_one_config_autotune_and_void_helpers() -> None:
    """The launch through a name bound to kernel[grid], the heuristics' value in terms of the
    launch's own arguments, the options a one-config autotune fixes, and the kernel's body read
    through the void helper it calls (a reassigned parameter bound first): what the detectors see."""
    from diagnose.triage.detectors.model import build_model, launch_value

    module = build_model(MODEL_SRC, "m.py", ast.parse(MODEL_SRC))
    assert list(module.kernels) == ["copy_kernel"]  # the inlined helper is read inside its caller
    (launch,) = module.launches
    assert ast.unparse(launch.grid) == "(1, 4)"
    assert launch_value(module, launch, "BLOCK") == 128  # next_power_of_2(96)
    assert launch_value(module, launch, "num_warps") == 2
    body = ast.unparse(module.kernels["copy_kernel"].node)
    # the helper's parameter moved once at its top is read as the parameter plus that offset
    assert "tl.load(x_ptr + tl.program_id(1) * n + offs" in body and "x_ptr +=" not in body
    assert "x_ptr = x_ptr" not in body and "_body(" not in body


VALUE_HELPERS = '''
import triton
import triton.language as tl


@triton.jit
def _tile(ptr, offs, n):
    x = tl.load(ptr + offs, mask=offs < n, other=0.0)
    return x.to(tl.float32)


@triton.jit
def _scale(x, offs, n, ptr):
    x = x * 2.0  # its own `x` and its own parameter `x` reassigned: must not clobber the caller's
    return x + _tile(ptr, offs, n)


@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = _tile(x_ptr, offs, n)
    tl.store(y_ptr + offs, _scale(x, offs, n, x_ptr) + x, mask=offs < n)


def run(x, y):
    scale_kernel[(4,)](x, y, 96, BLOCK=32)
'''


def test_the_model_reads_value_returning_helpers_into_the_kernel_with_their_names_kept_apart() -> None:
    """A call for a helper's value (`x = _tile(...)`, or inside an expression) is read as the
    helper's statements before it and its returned expression in its place, nested helpers too;
    the helper's own names (a reassigned parameter included) are renamed where they clash."""
    from diagnose.triage.detectors.model import build_model

    module = build_model(VALUE_HELPERS, "m.py", ast.parse(VALUE_HELPERS))
    assert list(module.kernels) == ["scale_kernel"]
    kernel = module.kernels["scale_kernel"]
    assert kernel.inlined == {"_tile", "_scale"}
    body = ast.unparse(kernel.node)
    assert "_tile(" not in body and "_scale(" not in body
    assert "tl.load(x_ptr + offs, mask=offs < n" in body  # parameters bound to the call's arguments
    # the caller's `x` is assigned once (from the first tile); the helpers' own are renamed
    assigned = [t.id for n in ast.walk(kernel.node) if isinstance(n, ast.Assign) for t in n.targets
                if isinstance(t, ast.Name)]
    assert assigned.count("x") == 1 and {"x_tile", "x_scale", "x_tile2"} <= set(assigned), assigned
    (store,) = kernel.calls("store")
    assert ast.unparse(store.args[1]) == "x_scale + x_tile2.to(tl.float32) + x"
