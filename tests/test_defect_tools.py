"""The seeded-defect bench's authoring and bookkeeping tools: the author's check refuses plain
module globals inside @triton.jit code (Triton accepts them on the CPU and rejects them on a GPU),
and the timing filler writes only empty timing cells of the rows it matches."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

DEFECTS = Path(__file__).resolve().parent.parent / "bench" / "defects"


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


compile_check = _load(DEFECTS / "authoring" / "compile_check.py", "compile_check")
fill_timings = _load(DEFECTS / "fill_timings.py", "fill_timings")

KERNEL = '''import triton
import triton.language as tl
NEG = -(1 << 30)
SCALE = 0.5
FILL = tl.constexpr(-1)


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, mask=offs < n, other=FILL)
    tl.store(x_ptr + offs, tl.where(v > 0, v * SCALE, NEG), mask=offs < n)


def run(x):
    k[(1,)](x, x.numel(), BLOCK=128, num_warps=NEG * 0 + 4)
'''


def test_plain_globals_read_in_jit_code_are_named_and_constexpr_ones_pass(tmp_path):
    path = tmp_path / "slow.py"
    path.write_text(KERNEL)
    assert compile_check.plain_globals(path) == ["NEG (k)", "SCALE (k)"]
    path.write_text(KERNEL.replace("NEG = -(1 << 30)", "NEG = tl.constexpr(-(1 << 30))")
                    .replace("SCALE = 0.5", "SCALE = tl.constexpr(0.5)"))
    assert compile_check.plain_globals(path) == []


def test_timings_fill_only_empty_cells_of_matched_rows(tmp_path, monkeypatch):
    header = "| case | task | model | defect | family | tier | H200 slow ms | fixed ms | speedup |\n"
    readme = tmp_path / "README.md"
    readme.write_text(header + "| `a-case` | ./task | m | d | f | 1 |  |  |  |\n"
                      "| `b-case` | ./task | m | d | f | 1 | 2.000 | 1.000 | 2.00x |\n"
                      "| `c-case` | ./task | m | d | f | 1 | - | - | - |\n")
    (tmp_path / "HELD_OUT.md").write_text(header)
    result = tmp_path / "t.json"
    result.write_text(json.dumps({"cases": [
        {"case": "a-case", "status": "ok", "slow_ms": 3.0, "fixed_ms": 1.5, "speedup": 2.0},
        {"case": "b-case", "status": "ok", "slow_ms": 9.0, "fixed_ms": 1.0, "speedup": 9.0},
        {"case": "c-case", "status": "ok", "slow_ms": 1.0, "fixed_ms": 1.0, "speedup": 1.0},
        {"case": "d-case", "status": "wrong: slow.py"}]}))
    monkeypatch.setattr(fill_timings, "HERE", tmp_path)
    assert fill_timings.main([str(result)]) == 0
    rows = readme.read_text().splitlines()
    assert rows[1].endswith("| 3.000 | 1.500 | 2.00x |")
    assert rows[2].endswith("| 2.000 | 1.000 | 2.00x |")  # a filled row is left as it was
    assert rows[3].endswith("| 1.000 | 1.000 | 1.00x |")
