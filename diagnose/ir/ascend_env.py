"""The Ascend compiler's own Python environment (triton-ascend and triton both install `triton`)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from .errors import IRCaptureError

TRITON_ASCEND = "triton-ascend==3.2.0"
# triton-ascend declares no dependencies, but its `triton` package imports these at import time.
FRONTEND_DEPS = ("pybind11", "numpy")


def passwise_home() -> Path:
    return Path(os.environ.get("PASSWISE_HOME") or Path.home() / ".passwise")


def env_python(env: Path) -> Path:
    return env / "bin" / "python"


def to_stderr(message: str) -> None:
    """Progress goes to stderr: stdout may be carrying a JSON report (`passwise diagnose --json`)."""
    print(message, file=sys.stderr)


def ensure_ascend_env(home: str | Path | None = None,
                      progress: Callable[[str], None] = to_stderr, timeout: float = 900) -> Path:
    """Create <home>/envs/ascend with triton-ascend once; return its interpreter."""
    env = Path(home or passwise_home()) / "envs" / "ascend"
    python = env_python(env)
    if python.exists() and _adapter_opt_or_none(python) is not None:
        return python
    progress(f"creating the Ascend compiler environment in {env} ...")
    _step([sys.executable, "-m", "venv", "--clear", str(env)], timeout,
          f"Could not create a virtual environment in {env}; check the folder is writable.")
    progress(f"installing {TRITON_ASCEND} (about 55 MB) ...")
    _step([str(python), "-m", "pip", "install", "-q", TRITON_ASCEND, *FRONTEND_DEPS], timeout,
          f"pip could not install {TRITON_ASCEND} into {env}; check that PyPI is reachable "
          "and that this machine is x86_64/aarch64 Linux with Python 3.9-3.11.")
    if _adapter_opt_or_none(python) is None:
        raise IRCaptureError(f"{TRITON_ASCEND} installed in {env} but ships no "
                             "triton-adapter-opt; remove the folder and run again.")
    progress("Ascend compiler environment ready")
    return python


def adapter_opt(python: str | Path) -> Path:
    """Path of triton-adapter-opt inside the environment of `python`."""
    path = _adapter_opt_or_none(Path(python))
    if path is None:
        raise IRCaptureError(f"No triton-adapter-opt in the environment of {python}; run "
                             "ensure_ascend_env() or set PASSWISE_ASCEND_PYTHON to one with "
                             f"{TRITON_ASCEND}.")
    return path


def _adapter_opt_or_none(python: Path) -> Path | None:
    # find_spec does not execute triton/__init__, which needs the frontend deps
    probe = "import importlib.util as u; print(u.find_spec('triton').submodule_search_locations[0])"
    try:
        out = subprocess.run([str(python), "-c", probe], capture_output=True, text=True,
                             timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    path = Path(out.stdout.strip()) / "backends" / "ascend" / "triton-adapter-opt"
    return path if path.exists() else None


def _step(cmd: list[str], timeout: float, failure: str) -> None:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise IRCaptureError(failure) from exc
    if proc.returncode != 0:
        raise IRCaptureError(f"{failure} ({(proc.stderr.strip().splitlines() or ['?'])[-1]})")
