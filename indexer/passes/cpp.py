"""Reads C++ sources for the links from a pass def to its code: `#define GEN_PASS_DEF_*` lines,
`impl::*Base` and PassWrapper subclasses, and `create*` definitions, as `CppSymbol`s.
Also the text helpers the other C++ readers share (line numbers, bracket matching)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

CPP_EXTS = (".cpp", ".cc", ".cxx", ".h", ".hpp")


@dataclass
class CppSymbol:
    """A C++ class or function found in a source file, with its line range."""

    name: str
    path: str
    start_line: int
    end_line: int
    kind: str  # class | create_function | gen_pass_def
    base_def: str = ""  # the TableGen def whose Base it derives from / GEN_PASS_DEF names
    makes: list[str] = field(default_factory=list)  # classes built / create fns delegated to
    argument: str = ""  # for hand-written PassWrapper passes: getArgument()'s string
    description: str = ""


class LineNumbers:
    """Offset -> 1-based line number."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def __call__(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos)


_CPP_SKIP = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', re.S)


def match_brace(text: str, open_pos: int, open_: str = "{", close: str = "}") -> int:
    """Position of the bracket closing text[open_pos], skipping comments and literals."""
    depth, i = 0, open_pos
    while i < len(text):
        c = text[i]
        if c in "/\"'":
            m = _CPP_SKIP.match(text, i)
            if m:
                i = m.end()
                continue
        if c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text) - 1


def unqualified(name: str) -> str:
    return name.rsplit("::", 1)[-1]


_GEN_DEF = re.compile(r"^[ \t]*#define[ \t]+GEN_PASS_DEF_(\w+)", re.M)
_CLASS = re.compile(r"\b(?:struct|class)\s+(\w+)\s*(?:final\s*)?:([^{;]*)\{")
_BASE = re.compile(r"(?:impl::)?(\w+)Base\s*<")
_CREATE = re.compile(r"std::unique_ptr\s*<[\w:\s<>]*>\s*((?:\w+::)*)(create\w+)\s*\(")
_GET_ARG = re.compile(r'getArgument\s*\(\s*\)\s*const[^{]*\{\s*return\s*"([\w\-.]+)"')
_GET_DESC = re.compile(r'getDescription\s*\(\s*\)\s*const[^{]*\{\s*return\s*"([^"]*)"')
_MAKES = re.compile(r"make_unique\s*<\s*(?:\w+::)*(\w+)\s*>|return\s+(?:\w+::)*(create\w+)\s*\(")


def scan_cpp(path: str, text: str) -> list[CppSymbol]:
    """GEN_PASS_DEF lines, pass classes (tablegen Base subclasses and PassWrapper passes)
    and `create*` definitions of one C++ file."""
    if "Pass" not in text:
        return []
    line = LineNumbers(text)
    out = [CppSymbol(m.group(0).strip(), path, line(m.start()), line(m.start()),
                     "gen_pass_def", base_def=m.group(1)) for m in _GEN_DEF.finditer(text)]
    for m in _CLASS.finditer(text):
        bases = m.group(2)
        base = _BASE.search(bases)
        if not base and "PassWrapper" not in bases:
            continue
        end = match_brace(text, m.end() - 1)
        body = text[m.end():end]
        arg, desc = _GET_ARG.search(body), _GET_DESC.search(body)
        out.append(CppSymbol(m.group(1), path, line(m.start()), line(end), "class",
                             base_def=base.group(1) if base else "",
                             argument=arg.group(1) if arg else "",
                             description=desc.group(1) if desc else ""))
    for m in _CREATE.finditer(text):
        close = match_brace(text, m.end() - 1, "(", ")")
        after = text[close + 1:close + 200].lstrip()
        if not after.startswith("{"):
            continue  # a declaration, not a definition
        brace = text.index("{", close)
        end = match_brace(text, brace)
        makes = [a or b for a, b in _MAKES.findall(text[brace:end])]
        out.append(CppSymbol(m.group(2), path, line(m.start()), line(end), "create_function",
                             makes=makes))
    return out

