"""Compile a case's slow.py or fixed.py for sm_90 on the CPU, as a case author's check.

    .venv/bin/python bench/defects/authoring/compile_check.py bench/defects/NAME/slow.py

Refuses module-level plain numbers read inside @triton.jit code (Triton rejects them on a GPU,
not on the CPU), then traces the task's `run` at size large through diagnose.ir.capture_cuda (no
GPU needed) and prints one line: OK with the number of kernel launches compiled, or FAILED with
the compiler's reason (exit 1).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO_ROOT))
from diagnose.ir import capture_cuda  # noqa: E402
from diagnose.ir.errors import IRCaptureError  # noqa: E402


def plain_globals(path: Path) -> list[str]:
    """`NAME (function)` for each module-level int/float/bool a @triton.jit function reads that is
    not a tl.constexpr: the CPU paths accept it, but Triton refuses it when it launches on a GPU
    ("Cannot access global variable ... from within @jit'ed function")."""
    tree = ast.parse(path.read_text())
    plain = {t.id for node in tree.body if isinstance(node, ast.Assign)
             and isinstance(node.value, ast.Constant | ast.UnaryOp | ast.BinOp)
             for t in node.targets if isinstance(t, ast.Name)}
    found = []
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and any("jit" in ast.unparse(d) for d in fn.decorator_list):
            local = {a.arg for a in fn.args.args} | {t.id for n in ast.walk(fn) if isinstance(n, ast.Assign)
                                                     for t in n.targets if isinstance(t, ast.Name)}
            found += sorted({f"{n.id} ({fn.name})" for n in ast.walk(fn) if isinstance(n, ast.Name)
                             and isinstance(n.ctx, ast.Load) and n.id in plain - local})
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2].strip())
        return 2
    path = Path(argv[0]).resolve()
    bad = plain_globals(path)
    if bad:
        print(f"FAILED: @triton.jit code reads plain module globals {', '.join(bad)}; Triton rejects "
              "these on a GPU: write NAME = tl.constexpr(value) or pass them as constexpr arguments")
        return 1
    try:
        capture = capture_cuda(path.parent / "task", path, size="large")
    except IRCaptureError as exc:
        print(f"FAILED: {exc}")
        return 1
    print(f"OK: {len(capture.kernels)} kernel launch(es) compiled for sm_90")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
