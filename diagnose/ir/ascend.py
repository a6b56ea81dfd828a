"""Ascend front-end IR capture: TTIR through triton-adapter-opt's passes, pass by pass.

The TTIR comes from the CUDA capture (the tt dialect after make_ttir, before any GPU
layout is assigned); the Ascend pipeline is the one triton-ascend's compiler.py
(ttir_to_linalg) runs. Stages after it need CANN's bishengir-compile and are reported as
unavailable.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path

from .ascend_env import adapter_opt, ensure_ascend_env
from .cuda import capture_cuda
from .dumps import attach_nested, split_dump
from .errors import IRCaptureError
from .model import CompileFailure, IRCapture, KernelIR, Stage
from .signature import diff_stages, signature_of

# triton-ascend 3.2.0 ttir_to_linalg, with AscendOptions defaults (A2/A3, not 910_95).
ASCEND_PIPELINE = [
    "--discrete-mask-access-conversion=compile-on-910-95=False force-simt-template=False",
    "--triton-to-annotation",
    "--triton-to-unstructure=compile-on-910-95=False force-simt-template=False",
    "--triton-to-hivm",
    "--triton-to-hfusion",
    "--triton-to-llvm",
    "--bubble-up-operation",
    "--triton-to-linalg=global-kernel=false named-ops=True enable-nd2nz-on-vector=False "
    "enable-select-analysis=False compile-on-910-95=False",
]
BISHENG_NOTE = ("HIVM/HFusion lowering and the npubin (bishengir-compile, from the CANN "
                "toolkit) are not run: install CANN and put bishengir-compile on PATH on an "
                "Ascend host to capture them")


def ascend_python(home: str | Path | None = None) -> Path:
    """PASSWISE_ASCEND_PYTHON if set, otherwise the managed environment (created on demand)."""
    configured = os.environ.get("PASSWISE_ASCEND_PYTHON")
    return Path(configured) if configured else ensure_ascend_env(home)


def capture_ascend(task: str | Path, candidate: str | Path | None = None, size: str = "small",
                   timeout: float = 300, python: str | Path | None = None,
                   home: str | Path | None = None) -> IRCapture:
    """Capture each launch's Ascend front-end trajectory (TTIR -> linalg/HIVM)."""
    opt = adapter_opt(python or ascend_python(home))
    cuda = capture_cuda(task, candidate, size=size, timeout=timeout)
    capture = IRCapture(backend="ascend", target="Ascend910B (A2/A3 front end)",
                        source=cuda.source, compiler_version="triton-ascend 3.2.0",
                        failures=list(cuda.failures), unavailable=[BISHENG_NOTE],
                        commands=list(cuda.commands[:1]))
    # what the launcher does around its launches is the same on either target: the hand-overs
    # between launches, launches repeated, re-reads, host-side copies and casts
    capture.intermediates, capture.rereads = cuda.intermediates, cuda.rereads
    capture.launch_counts, capture.host_ops = dict(cuda.launch_counts), list(cuda.host_ops)
    with tempfile.TemporaryDirectory(prefix="passwise-ascend-") as scratch:
        work = Path(scratch)  # the stages are read into the capture; the files go with it
        for kir in cuda.kernels:
            ttir = _ttir_of(kir)
            if ttir is None:
                continue
            ttir_file = work / f"{kir.kernel}.ttir.mlir"
            ttir_file.write_text(ttir)
            capture.kernels.append(run_adapter_opt(opt, ttir_file, kir, capture, timeout))
    return capture


def _ttir_of(kir: KernelIR) -> str | None:
    """The tt-dialect module make_ttir handed on (input of convert-triton-to-tritongpu)."""
    return next((s.text for s in kir.stages
                 if s.pass_arg == "convert-triton-to-tritongpu" and s.when == "before"), None)


def run_adapter_opt(opt: Path, ttir_file: Path, source: KernelIR, capture: IRCapture,
                    timeout: float = 300) -> KernelIR:
    """Run the Ascend pass pipeline on one TTIR file and cut its dumps into stages."""
    out_file = ttir_file.with_suffix(".ttadapter.mlir")
    cmd = [str(opt), str(ttir_file), *ASCEND_PIPELINE, "--mlir-print-ir-after-all",
           "-o", str(out_file)]
    capture.commands.append(shlex.join(cmd))
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise IRCaptureError(f"triton-adapter-opt ran past {timeout:.0f} s on {ttir_file}; "
                             "raise the timeout or report the kernel.") from exc
    kir = KernelIR(kernel=source.kernel, file=source.file, line=source.line,
                   specialization=source.specialization)
    kir.stages = [Stage(index=0, name="ttir", pass_arg="make_ttir", when="final",
                        text=ttir_file.read_text(), pipeline="ttir")]
    top_level = [arg.split("=")[0].lstrip("-") for arg in ASCEND_PIPELINE]
    kir.stages += attach_nested(split_dump(proc.stderr, pipeline="ttadapter", start_index=1),
                                top_level)
    if proc.returncode != 0:
        failed = next((s.pass_arg for s in kir.stages if s.failed), "triton-adapter-opt")
        # MLIR reports "error:"; a pass that trips an assertion prints only "Assertion ..."
        errors = [ln for ln in proc.stderr.splitlines()
                  if "error" in ln.lower() or "Assertion" in ln]
        kir.failure = CompileFailure(kernel=kir.kernel, phase=failed,
                                     message="\n".join(errors[-8:]) or f"exit {proc.returncode}")
        capture.failures.append(kir.failure)
    kir.signatures = [signature_of(s) for s in kir.stages]
    kir.diffs = diff_stages(kir.stages, kir.signatures)
    return kir
