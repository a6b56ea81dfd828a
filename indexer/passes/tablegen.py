"""Reads TableGen `Passes.td` files: each `def X : Pass<"argument", ...>` (or InterfacePass)
with its summary, description, constructor, options and dependent dialects, as a `TdPass`."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

from kb.passes import PassOption


@dataclass
class TdPass:
    """One `def X : Pass<"arg", ...>` (or InterfacePass) read from a .td file."""

    def_name: str
    argument: str
    path: str
    start_line: int
    end_line: int
    summary: str = ""
    description: str = ""
    constructor: str = ""
    options: list[PassOption] = field(default_factory=list)
    dependent_dialects: list[str] = field(default_factory=list)


_TD_TOKEN = re.compile(
    r"(?P<ws>\s+)|(?P<lc>//[^\n]*)|(?P<bc>/\*.*?\*/)|(?P<code>\[\{.*?\}\])"
    r'|(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<id>[A-Za-z_][\w.]*)|(?P<num>\d+)|(?P<p>.)',
    re.S,
)


@dataclass
class _Tok:
    kind: str
    text: str
    line: int


def _td_tokens(text: str) -> list[_Tok]:
    toks, line = [], 1
    for m in _TD_TOKEN.finditer(text):
        kind = m.lastgroup
        if kind not in ("ws", "lc", "bc"):
            toks.append(_Tok(kind, m.group(), line))
        line += m.group().count("\n")
    return toks


def _until_close(toks: list[_Tok], i: int, open_: str, close: str) -> int:
    """Index of the token closing the bracket opened at toks[i]."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].kind == "p" and toks[j].text == open_:
            depth += 1
        elif toks[j].kind == "p" and toks[j].text == close:
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


def _split_top(toks: list[_Tok], sep: str = ",") -> list[list[_Tok]]:
    """Split a token run at separators outside any bracket."""
    parts: list[list[_Tok]] = [[]]
    depth = 0
    for t in toks:
        if t.kind == "p" and t.text in "<[(":
            depth += 1
        elif t.kind == "p" and t.text in ">])":
            depth -= 1
        if depth == 0 and t.kind == "p" and t.text == sep:
            parts.append([])
        else:
            parts[-1].append(t)
    return [p for p in parts if p]


def _td_value(toks: list[_Tok]) -> str:
    """The string a TableGen value spells: adjacent strings concatenate, code blocks dedent."""
    out = []
    for t in toks:
        if t.kind == "str":
            out.append(t.text[1:-1].encode().decode("unicode_escape", "replace"))
        elif t.kind == "code":
            out.append(textwrap.dedent(t.text[2:-2]).strip())
        elif t.kind in ("id", "num"):
            out.append(t.text)
    return "".join(out)


def _td_options(toks: list[_Tok]) -> list[PassOption]:
    opts = []
    for i, t in enumerate(toks):
        if t.kind != "id" or t.text not in ("Option", "ListOption"):
            continue
        if i + 1 >= len(toks) or toks[i + 1].text != "<":
            continue
        end = _until_close(toks, i + 1, "<", ">")
        args = [_td_value(a) for a in _split_top(toks[i + 2:end])]
        if t.text == "Option" and len(args) >= 5:
            opts.append(PassOption(name=args[1], type=args[2], default=args[3],
                                   description=args[4], cpp_name=args[0]))
        elif t.text == "ListOption" and len(args) >= 4:
            opts.append(PassOption(name=args[1], type=args[2], description=args[3],
                                   cpp_name=args[0], is_list=True))
    return opts


def _td_body(p: TdPass, toks: list[_Tok]) -> None:
    """Fill a pass from the `let name = value;` fields of its body."""
    i = 0
    while i < len(toks):
        if toks[i].text == "let" and i + 2 < len(toks) and toks[i + 2].text == "=":
            name = toks[i + 1].text
            j = i + 3
            value: list[_Tok] = []
            depth = 0
            while j < len(toks) and not (depth == 0 and toks[j].text == ";"):
                if toks[j].kind == "p" and toks[j].text in "[<(":
                    depth += 1
                elif toks[j].kind == "p" and toks[j].text in "]>)":
                    depth -= 1
                value.append(toks[j])
                j += 1
            if name in ("summary", "description", "constructor"):
                setattr(p, name, _td_value(value))
            elif name == "options":
                p.options = _td_options(value)
            elif name == "dependentDialects":
                p.dependent_dialects = [_td_value([t]) for t in value if t.kind == "str"]
            i = j
        i += 1


def parse_td_passes(path: str, text: str) -> list[TdPass]:
    """Every pass def of a TableGen file, including defs nested in `let ... in {}` blocks
    and multiclasses (a def is recognised wherever it appears)."""
    toks = _td_tokens(text)
    out = []
    for i in range(len(toks) - 4):
        if not (toks[i].text == "def" and toks[i + 1].kind == "id" and toks[i + 2].text == ":"
                and toks[i + 3].text in ("Pass", "InterfacePass") and toks[i + 4].text == "<"):
            continue
        close = _until_close(toks, i + 4, "<", ">")
        args = _split_top(toks[i + 5:close])
        if not args:
            continue
        p = TdPass(def_name=toks[i + 1].text, argument=_td_value(args[0]), path=path,
                   start_line=toks[i].line, end_line=toks[close].line)
        if close + 1 < len(toks) and toks[close + 1].text == "{":
            end = _until_close(toks, close + 1, "{", "}")
            _td_body(p, toks[close + 2:end])
            p.end_line = toks[end].line
        out.append(p)
    return out

