"""Compile a case's slow.py or fixed.py for sm_90 on the CPU, as a case author's check.

    .venv/bin/python bench/defects/authoring/compile_check.py bench/defects/NAME/slow.py

Traces the task's `run` at size large through diagnose.ir.capture_cuda (no GPU needed) and prints
one line: OK with the number of kernel launches compiled, or FAILED with the compiler's reason
(exit 1).
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO_ROOT))
from diagnose.ir import capture_cuda  # noqa: E402
from diagnose.ir.errors import IRCaptureError  # noqa: E402


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2].strip())
        return 2
    path = Path(argv[0]).resolve()
    try:
        capture = capture_cuda(path.parent / "task", path, size="large")
    except IRCaptureError as exc:
        print(f"FAILED: {exc}")
        return 1
    print(f"OK: {len(capture.kernels)} kernel launch(es) compiled for sm_90")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
