"""A launch sized from device values the launcher reads back (`.item()`) cannot be compiled by a
capture that never runs the kernels before it: a size-limit failure there is the capture's, not
the kernel's, and does not make the diagnosis "the kernel does not build"."""

from __future__ import annotations

import textwrap
from pathlib import Path

from diagnose.evidence import Finding, TierResult
from diagnose.ladder import Options, _unknowable_launch_sizes, broken_kernel, make_context, tier1
from diagnose.target import resolve_target

TASK = '''
import torch

META = {"sizes": {"small": {"n": 4096}}, "dtypes": ["float32"]}


def make_inputs(size, device="cpu", seed=0, dtype=None):
    return (torch.rand(META["sizes"][size]["n"], generator=torch.Generator().manual_seed(seed)),)


def reference(x):
    return x[x > 0.5].sum().reshape(1)
'''

LAUNCHER = '''
import torch
import triton
import triton.language as tl


@triton.jit
def count_kernel(x_ptr, count_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(count_ptr, tl.sum((tl.load(x_ptr + offs, mask=offs < n, other=0.0) > 0.5).to(tl.int32)))


@triton.jit
def sum_kept(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr, tl.sum(tl.where(x > 0.5, x, 0.0)))


def run(x):
    count = torch.empty(1, dtype=torch.int32, device=x.device)
    count_kernel[(1,)](x, count, x.numel(), BLOCK=4096)
    kept = count.item()
    out = torch.empty(1, device=x.device)
    sum_kept[(1,)](x, out, x.numel(), BLOCK=max(triton.next_power_of_2({kept}), 4096))
    return out
'''

FAILURE = ("sum_kept does not compile (frontend (ast-to-ttir)): numel (2147483648) exceeds triton "
           "maximum tensor numel (1048576)")


def _ctx(tmp_path: Path, reads_back: bool):
    (tmp_path / "task.py").write_text(textwrap.dedent(TASK))
    kernel = tmp_path / "k.py"
    kernel.write_text(LAUNCHER.replace("{kept}", "kept" if reads_back else "x.numel()")
                      .replace("    kept = count.item()\n", "    kept = count.item()\n" if reads_back else ""))
    ctx = make_context(resolve_target(str(tmp_path), str(kernel)), "cuda", Options(max_tier=3, size="small"))
    ctx.evidence.append(tier1(ctx))
    return ctx


def _failed() -> TierResult:
    return TierResult(3, "IR attribution", [Finding(tier=3, kind="compile-failure", card_id="", rewrite_family="",
                                                    message=FAILURE, confidence=1.0)], reason="")


def test_a_size_failure_after_a_read_back_is_the_captures_not_the_kernels(tmp_path):
    ctx = _ctx(tmp_path, reads_back=True)
    assert any(f.rewrite_family == "avoid-host-sync" for f in ctx.tier(1).findings)
    result = _failed()
    _unknowable_launch_sizes(ctx, result)
    assert not result.findings and "reads back from the device" in result.reason
    ctx.evidence.append(result)
    assert broken_kernel(ctx) is None


def test_without_a_read_back_the_same_failure_is_a_broken_kernel(tmp_path):
    ctx = _ctx(tmp_path, reads_back=False)
    result = _failed()
    _unknowable_launch_sizes(ctx, result)
    assert len(result.findings) == 1
    ctx.evidence.append(result)
    decision = broken_kernel(ctx)
    assert decision is not None and decision.verdict == "inconclusive" and "does not build" in decision.reason
