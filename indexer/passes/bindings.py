"""Reads the pybind sources that expose passes to python: `def_submodule` trees,
`ADD_PASS_*WRAPPER_*` macros and `m.def(...)` lambdas that add a pass, as `Binding`s."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from indexer.passes.cpp import LineNumbers, match_brace, unqualified


@dataclass
class Binding:
    """A python-visible pass adder, e.g. `passes.ttgpuir.add_coalesce` -> createTritonGPUCoalesce."""

    qualified: str
    create: str
    path: str
    line: int


_INIT_FN = re.compile(r"(?:void\s+(\w+)\s*\(\s*(?:py|pybind11)::module(?:_)?\s*&&?\s*\w+\s*\)"
                      r"|PYBIND11_MODULE\(\s*\w+\s*,\s*\w+\s*\))\s*\{")
_SUBMOD = re.compile(r"(\w+)\s*\(\s*(\w+)\.def_submodule\(\s*\"(\w+)\"\s*\)\s*\)")
_SUBVAR = re.compile(r"auto\s+(\w+)\s*=\s*(\w+)\.def_submodule\(\s*\"(\w+)\"\s*\)")
_WRAPPER = re.compile(r"ADD_PASS_(?:OPTION_)?WRAPPER_\d+\(\s*\"(\w+)\"\s*,\s*([\w:]+)")
_MDEF = re.compile(r"\b\w+\.def\(\s*\"(\w+)\"")
_ADDPASS = re.compile(r"add(?:Nested)?Pass\s*(?:<[^>]*>)?\s*\(\s*(?:std::move\()?\s*([\w:]+)\s*\(")
_STATIC_FN = re.compile(r"(?:static\s+)?std::unique_ptr\s*<[\w:\s]*>\s*(\w+)\s*\([^)]*\)\s*\{")


def scan_bindings(files: dict[str, str]) -> list[Binding]:
    """All pass bindings of the pybind sources, named by their python module path
    (`passes.ttgpuir.add_coalesce`, `nvidia.passes.ttnvgpuir.add_plan_cta`)."""
    parent: dict[str, tuple[str, str]] = {}  # init fn -> (parent init fn, submodule path)
    found: list[tuple[str, str, str, str, int]] = []  # (init fn, py name, create, path, line)
    for path, text in files.items():
        if "def_submodule" not in text and "ADD_PASS" not in text:
            continue
        line = LineNumbers(text)
        wrappers = _local_wrappers(text)
        for fm in _INIT_FN.finditer(text):
            end = match_brace(text, fm.end() - 1)
            body = text[fm.end():end]
            variables = {v: sub for v, _, sub in _SUBVAR.findall(body)}
            for child, var, sub in _SUBMOD.findall(body):
                prefix = variables.get(var, "")
                parent[child] = (fm.group(1) or "", f"{prefix}.{sub}" if prefix else sub)
            for name, create, pos in _binding_calls(body):
                create = wrappers.get(unqualified(create), unqualified(create))
                found.append((fm.group(1) or "", name, create, path, line(fm.end() + pos)))
    return [Binding(f"{_module_path(fn, parent)}.{name}".lstrip("."), create, path, ln)
            for fn, name, create, path, ln in found]


def _binding_calls(body: str) -> Iterable[tuple[str, str, int]]:
    for m in _WRAPPER.finditer(body):
        yield m.group(1), m.group(2), m.start()
    for m in _MDEF.finditer(body):
        close = match_brace(body, body.index("(", m.start()), "(", ")")
        add = _ADDPASS.search(body, m.end(), close)
        if add:
            yield m.group(1), add.group(1), m.start()


def _local_wrappers(text: str) -> dict[str, str]:
    """`static unique_ptr<Pass> createFooWrapper(..) { ... return createFoo(opts); }` ->
    {createFooWrapper: createFoo}: bindings often go through such a helper."""
    out = {}
    for m in _STATIC_FN.finditer(text):
        body = text[m.end():match_brace(text, m.end() - 1)]
        inner = re.search(r"return\s+([\w:]+)\s*\(", body)
        if inner:
            out[m.group(1)] = unqualified(inner.group(1))
    return out


def _module_path(fn: str, parent: dict[str, tuple[str, str]]) -> str:
    parts: list[str] = []
    seen = set()
    while fn in parent and fn not in seen:
        seen.add(fn)
        fn, sub = parent[fn]
        parts.insert(0, sub)
    # A backend's root is registered by macro (INIT_BACKEND(nvidia) -> init_triton_nvidia).
    if fn.startswith("init_triton_"):
        parts.insert(0, fn.removeprefix("init_triton_"))
    return ".".join(parts)

