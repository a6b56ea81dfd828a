"""Check every defect case's slow.py and fixed.py against the task reference on CPU.

Each case runs in its own subprocess under TRITON_INTERPRET=1 at size "small" (two seeds, the
task's default dtype), after the runner's static torch-fallback check. The runner's own
`verify` is not used because Triton 3.6's interpreter needs the shim below (numpy >= 2.4 loop
bounds, bfloat16 tl.dot), which its child processes do not install.

    .venv/bin/python bench/defects/verify_cpu.py [CASE ...] [--json OUT] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from cases import REPO_ROOT, DefectCase, load_cases

sys.path.insert(0, str(REPO_ROOT))
from diagnose.runner.static_check import summary, torch_fallbacks  # noqa: E402
from diagnose.runner.tasks import parse_file  # noqa: E402

SEEDS = (0, 1)
TIMEOUT_S = 300

# Triton 3.6 interpreter faults that are not the kernels' (see kernels/README.md).
INTERPRETER_SHIM = '''
import numpy as np
import triton.runtime.interpreter as interp

_patch_tensor = interp._patch_lang_tensor
def _patch_lang_tensor(tensor, scope):
    _patch_tensor(tensor, scope)
    scope.set_attr(tensor, "__index__", lambda self: int(self.handle.data.reshape(-1)[0]))
interp._patch_lang_tensor = _patch_lang_tensor

_create_dot = interp.InterpreterBuilder.create_dot
def create_dot(self, a, b, d, input_precision, max_num_imprecise_acc):
    import triton.language as tl
    if a.dtype.scalar == tl.bfloat16:
        to32 = lambda h: interp.TensorHandle(
            interp._convert_float(h.data, tl.bfloat16, tl.float32, None).view(np.float32),
            tl.float32)
        a, b = to32(a), to32(b)
    return _create_dot(self, a, b, d, input_precision, max_num_imprecise_acc)
interp.InterpreterBuilder.create_dot = create_dot

# libdevice's stubs have no interpreter body (they return None): give the ones the cases call numpy's.
import triton.language as _tl
from triton.language.extra import libdevice as _libdevice
def _numpy_elementwise(fn):
    def apply(*args):
        first = next(a for a in args if isinstance(a, _tl.core.tensor))
        data = [a.handle.data if isinstance(a, _tl.core.tensor) else a for a in args]
        out = fn(*data).astype(first.handle.data.dtype)
        return _tl.core.tensor(interp.TensorHandle(out, first.handle.dtype.scalar), first.type)
    return apply
_libdevice.pow = _numpy_elementwise(np.power)
_libdevice.tanh = _numpy_elementwise(np.tanh)
'''

CHECK_SCRIPT = INTERPRETER_SHIM + '''
import importlib.util, json, sys, time
import torch

def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module

task = load(sys.argv[1], "defect_task")
dtype = task.META["dtypes"][0]
tol = task.META["tolerance"][dtype]
seeds = [int(s) for s in sys.argv[2].split(",")]
report = {}
for label, path in (("slow", sys.argv[3]), ("fixed", sys.argv[4])):
    started = time.perf_counter()
    problems = []
    try:
        cand = load(path, "defect_" + label)
        for seed in seeds:
            inputs = task.make_inputs("small", device="cpu", seed=seed, dtype=dtype)
            kept = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
            out = cand.run(*inputs)
            if any(isinstance(a, torch.Tensor) and not torch.equal(a, b) for a, b in zip(inputs, kept)):
                problems.append(f"seed {seed}: run() wrote into its inputs")
            if not task.META["deterministic"]:
                why = task.check(inputs, out)
                if why:
                    problems.append(f"seed {seed}: {why}")
                continue
            ref = task.reference(*kept)
            outs = out if isinstance(out, tuple) else (out,)
            refs = ref if isinstance(ref, tuple) else (ref,)
            if len(outs) != len(refs):
                problems.append(f"seed {seed}: {len(outs)} outputs, reference has {len(refs)}")
            for i, (o, r) in enumerate(zip(outs, refs)):
                if o.shape != r.shape or o.dtype != r.dtype:
                    problems.append(f"seed {seed} out {i}: {o.dtype}{list(o.shape)} != {r.dtype}{list(r.shape)}")
                elif not torch.allclose(o.double(), r.double(), atol=tol["atol"], rtol=tol["rtol"]):
                    err = (o.double() - r.double()).abs().max().item()
                    problems.append(f"seed {seed} out {i}: max abs error {err:.3g}")
    except Exception as exc:  # a crashing candidate is a failed check, reported in one line
        problems.append(f"{type(exc).__name__}: {str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ''}")
    report[label] = {"problems": problems, "seconds": round(time.perf_counter() - started, 2)}
report["dtype"] = dtype
print(json.dumps(report))
'''


@dataclass
class CandidateCheck:
    """The verdict for one candidate file of one case."""

    case: str
    candidate: str          # slow | fixed
    ok: bool
    detail: str
    seconds: float


def static_problem(path: Path) -> str | None:
    """The runner's torch-fallback rule: a candidate may only allocate with torch."""
    findings = torch_fallbacks(parse_file(path, "candidate"))
    return summary(findings) if findings else None


def check_case(case: DefectCase) -> list[CandidateCheck]:
    """Static check, then both candidates against the reference in one interpreter subprocess."""
    static = {label: static_problem(path) for label, path in (("slow", case.slow), ("fixed", case.fixed))}
    env = dict(os.environ, TRITON_INTERPRET="1", CUDA_VISIBLE_DEVICES="")
    cmd = [sys.executable, "-c", CHECK_SCRIPT, str(case.task_dir / "task.py"),
           ",".join(map(str, SEEDS)), str(case.slow), str(case.fixed)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=TIMEOUT_S)
        lines = proc.stdout.strip().splitlines()
        report = json.loads(lines[-1]) if proc.returncode == 0 and lines else None
        crash = None if report else (proc.stderr.strip().splitlines() or ["no output"])[-1]
    except subprocess.TimeoutExpired:
        report, crash = None, f"timed out after {TIMEOUT_S} s"
    checks = []
    for label in ("slow", "fixed"):
        if report is None:
            checks.append(CandidateCheck(case.name, label, False, f"check process failed: {crash}", 0.0))
            continue
        problems = report[label]["problems"]
        if static[label]:
            problems = [f"torch fallback: {static[label]}", *problems]
        detail = "; ".join(problems) if problems else f"matches reference ({report['dtype']}, seeds {list(SEEDS)})"
        checks.append(CandidateCheck(case.name, label, not problems, detail, report[label]["seconds"]))
    return checks


def table(checks: list[CandidateCheck]) -> str:
    rows = ["| case | candidate | ok | seconds | detail |", "|---|---|---|---|---|"]
    rows += [f"| {c.case} | {c.candidate} | {'yes' if c.ok else 'NO'} | {c.seconds:.1f} | {c.detail} |"
             for c in checks]
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="*", help="case folder names (default: all)")
    ap.add_argument("--json", type=Path, help="also write the results here")
    ap.add_argument("--workers", type=int, default=2, help="cases checked in parallel")
    args = ap.parse_args(argv)
    cases = load_cases(args.cases or None)
    with ThreadPoolExecutor(max_workers=max(1, args.workers)) as pool:
        checks = [c for group in pool.map(check_case, cases) for c in group]
    print(table(checks))
    failed = [c for c in checks if not c.ok]
    print(f"\n{len(checks) - len(failed)} of {len(checks)} candidates match the reference "
          f"({len(cases)} cases).")
    if args.json:
        args.json.write_text(json.dumps([asdict(c) for c in checks], indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
