"""The precision-matched-math family: libdevice's exact erf replaced by the bounded-error A&S 7.1.26
erf (proposers/rules/mathfns.py), run in the Triton interpreter against torch's exact GELU; kernels
it must leave alone; and the ladder naming the family on the suite's GELU from tier 1's detector and
tier 3's real sm_90 IR."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from diagnose.ladder import Options, diagnose, make_context
from diagnose.proposers.rules import RULES
from diagnose.proposers.rules.mathfns import HELPER, bounded_error_erf
from diagnose.target import resolve_target
from diagnose.triage.tier import triage_file

ROOT = Path(__file__).resolve().parent.parent
FAMILY, CARD = "precision-matched-math", "cuda-exact-erf-elementwise"

# libdevice's erf through an alias, a host-side math.erf that must stay, a clashing helper name
LIBDEVICE_GELU = textwrap.dedent('''
    import math
    import torch
    import triton
    import triton.language as tl
    from triton.language.extra.cuda import libdevice

    _erf_bounded = 3  # a module name the helper must not shadow


    @triton.jit
    def gelu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n)
        # the cumulative normal, exactly
        cdf = 0.5 * (1.0 + libdevice.erf(x * 0.7071067811865476))
        tl.store(out_ptr + offs, x * cdf, mask=offs < n)


    def run(x):
        scale = math.erf(1.0)  # host math: not a kernel's
        out = torch.empty_like(x)
        gelu_kernel[(triton.cdiv(x.numel(), 256),)](x, out, x.numel(), BLOCK=256)
        return out * (scale / math.erf(1.0))
''')

# `from triton.language.math import erf` and `from triton import language as tl`
BARE_ERF = textwrap.dedent('''
    import torch
    import triton
    from triton import language as tl
    from triton.language.math import erf


    @triton.jit
    def cdf_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n)
        tl.store(out_ptr + offs, 0.5 * (1.0 + erf(x * 0.7071067811865476)), mask=offs < n)


    def run(x):
        out = torch.empty_like(x)
        cdf_kernel[(triton.cdiv(x.numel(), 128),)](x, out, x.numel(), BLOCK=128)
        return out
''')

NO_ERF = textwrap.dedent('''
    import math
    import triton
    import triton.language as tl


    @triton.jit
    def silu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n)
        tl.store(out_ptr + offs, x * tl.sigmoid(x), mask=offs < n)


    def scale():
        return math.erf(0.5)
''')


def _run_in_interpreter(source: str, tmp_path: Path, expr: str) -> float:
    """Import `source` with TRITON_INTERPRET=1 in a child and print the max error of `expr`."""
    (tmp_path / "cand.py").write_text(source)
    code = textwrap.dedent(f'''
        import sys, torch
        sys.path.insert(0, {str(tmp_path)!r})
        import cand
        x = torch.cat([torch.linspace(-9, 9, 3001), 3 * torch.randn(2000, generator=torch.Generator().manual_seed(0))])
        got = cand.run(x).double()
        print(float(({expr} - got).abs().max()))
    ''')
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "TRITON_INTERPRET": "1"})
    assert out.returncode == 0, out.stderr[-2000:]
    return float(out.stdout.split()[-1])


def test_family_has_the_transformation() -> None:
    assert (FAMILY, bounded_error_erf) in RULES


def test_libdevice_erf_is_replaced_and_the_gelu_stays_within_the_bound(tmp_path) -> None:
    cands = bounded_error_erf(LIBDEVICE_GELU)
    base = cands[0].source
    assert "libdevice.erf(" not in base and "math.erf(1.0)" in base  # host math untouched
    helper = f"{HELPER}_"  # `_erf_bounded` is taken by a module constant
    assert f"def {helper}(z)" in base and f"{helper}(x * 0.7071067811865476)" in base
    assert "# the cumulative normal, exactly" in base and "|error| <= 1.5e-7" in base
    assert cands[0].params["erf_calls"] == 1
    # the launch BLOCK retuned upwards beside it, the erf change in each
    assert [c.params.get("to") for c in cands[1:]] == [512, 1024]
    assert all(f"def {helper}(z)" in c.source for c in cands)
    exact = "0.5 * x.double() * (1 + torch.erf(x.double() / 2 ** 0.5))"
    err = _run_in_interpreter(base, tmp_path, exact)
    assert err < 2e-6  # 0.5 * |x| * 1.5e-7 at |x| <= 9, plus fp32 rounding


def test_bare_erf_import_and_plain_triton_module_are_handled(tmp_path) -> None:
    base = bounded_error_erf(BARE_ERF)[0].source
    assert f"{HELPER}(x * 0.7071067811865476)" in base and "tl.fdiv(" in base
    err = _run_in_interpreter(base, tmp_path, "0.5 * (1 + torch.erf(x.double() / 2 ** 0.5))")
    assert err < 3e-7


def test_kernels_without_a_triton_erf_are_left_alone() -> None:
    assert bounded_error_erf(NO_ERF) == []
    assert bounded_error_erf((ROOT / "kernels" / "silu" / "baseline.py").read_text()) == []


def test_tier1_names_the_card_on_gelu_and_not_on_silu() -> None:
    gelu = triage_file(ROOT / "kernels" / "gelu" / "baseline.py", backend="cuda")
    assert any(f.card_id == CARD and f.rewrite_family == FAMILY for f in gelu.findings)
    silu = triage_file(ROOT / "kernels" / "silu" / "baseline.py", backend="cuda")
    assert not any(f.card_id == CARD for f in silu.findings)


@pytest.mark.slow
def test_ladder_concludes_precision_matched_math_on_the_suite_gelu_from_its_sm90_ir() -> None:
    d = diagnose(make_context(resolve_target(str(ROOT / "kernels" / "gelu")), "cuda", Options(max_tier=3),
                              open_kb=None))
    assert d.verdict == "concluded" and d.concluded_tier == 3
    assert (d.conclusion.rewrite_family, d.conclusion.card_id) == (FAMILY, CARD)
    erf = next(f for t in d.tiers if t.tier == 3 for f in t.findings if f.evidence.get("symptom") == "exact-erf")
    assert "math.erf" in " ".join(erf.evidence.get("ir_excerpt", [])) or "erf" in erf.message
