"""Builds the pass registry from a compiler source tree: TableGen pass defs, the C++ that
implements them, the pybind bindings that expose them, and the backend pipelines that run them.

Four readers feed one assembly step (`build.py`):
  tablegen.py   TableGen `Passes.td` -> `TdPass`       (argument, def name, summary, options, lines)
  cpp.py        C++ sources          -> `CppSymbol`    (GEN_PASS_DEF, *Base subclasses, create fns)
  bindings.py   pybind sources       -> `Binding`      (python name -> create function)
  pipelines.py  pipelines            -> `PipelineCall` (backend compiler.py, C++ pipeline builders)
"""

from indexer.passes.bindings import Binding, scan_bindings
from indexer.passes.build import (
    MLIR_UPSTREAM,
    PassIndexError,
    build_installed_registry,
    build_pass_registry,
    build_registry,
)
from indexer.passes.cpp import CPP_EXTS, CppSymbol, scan_cpp
from indexer.passes.pipelines import PipelineCall, read_cpp_pipelines, read_python_pipeline
from indexer.passes.tablegen import TdPass, parse_td_passes

__all__ = [
    "CPP_EXTS",
    "MLIR_UPSTREAM",
    "Binding",
    "CppSymbol",
    "PassIndexError",
    "PipelineCall",
    "TdPass",
    "build_installed_registry",
    "build_pass_registry",
    "build_registry",
    "parse_td_passes",
    "read_cpp_pipelines",
    "read_python_pipeline",
    "scan_bindings",
    "scan_cpp",
]
