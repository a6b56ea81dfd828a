"""Code as HTML: pygments-highlighted chunks with their real line numbers and marked lines,
and line diffs (a stage against the one before it, a kernel against its rewrite)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import lru_cache

from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.util import ClassNotFound

LEXERS = {"cpp": "cpp", "c": "c", "python": "python", "tablegen": "text", "mlir": "text",
          "markdown": "markdown", "toml": "toml", "ptx": "text"}


def code_html(text: str, language: str = "", first_line: int = 1,
              marked: set[int] | None = None) -> Markup:
    """Highlighted `text`, numbered from `first_line`, with `marked` (absolute) lines lit."""
    return _highlight(text, language, first_line, frozenset(marked or ()))


@lru_cache(maxsize=2048)
def _highlight(text: str, language: str, first_line: int, marked: frozenset[int]) -> Markup:
    try:
        lexer = get_lexer_by_name(LEXERS.get(language, language or "text"))
    except ClassNotFound:
        lexer = TextLexer()
    rel = sorted(n - first_line + 1 for n in (marked or ()) if n >= first_line)
    fmt = HtmlFormatter(linenos="table", linenostart=max(1, first_line), hl_lines=rel,
                        cssclass="code", wrapcode=True)
    return Markup(highlight(text, lexer, fmt))


def chunk_body(text: str) -> str:
    """A chunk's text without its one-line header (path, scope, symbol)."""
    first, _, rest = text.partition("\n")
    return rest if first.startswith(("// ", "# ")) and rest else text


def style_css() -> str:
    return HtmlFormatter(style="default").get_style_defs(".code")


@dataclass
class DiffLine:
    """One row of a side-by-side diff: left and right text (None: no line), numbers, change."""

    left: str | None
    right: str | None
    left_no: int | None
    right_no: int | None
    change: str  # same | removed | added | changed


def side_by_side(before: str, after: str, context: int | None = None) -> list[DiffLine]:
    """Rows pairing `before` and `after`; with `context`, unchanged runs are cut to that many
    lines around each change."""
    a, b = before.splitlines(), after.splitlines()
    rows: list[DiffLine] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            rows += [DiffLine(a[i], b[j], i + 1, j + 1, "same")
                     for i, j in zip(range(i1, i2), range(j1, j2), strict=True)]
            continue
        n = max(i2 - i1, j2 - j1)
        for k in range(n):
            i, j = i1 + k, j1 + k
            left = a[i] if i < i2 else None
            right = b[j] if j < j2 else None
            change = "changed" if left is not None and right is not None else (
                "removed" if right is None else "added")
            rows.append(DiffLine(left, right, i + 1 if left is not None else None,
                                 j + 1 if right is not None else None, change))
    return _trim(rows, context) if context is not None else rows


def _trim(rows: list[DiffLine], context: int) -> list[DiffLine]:
    changed = [n for n, r in enumerate(rows) if r.change != "same"]
    keep = {m for n in changed for m in range(n - context, n + context + 1)}
    out: list[DiffLine] = []
    for n, r in enumerate(rows):
        if n in keep:
            out.append(r)
        elif out and out[-1].change != "gap":
            out.append(DiffLine("…", "…", None, None, "gap"))
    return out


def unified(before: str, after: str, name: str) -> str:
    """A unified diff of a kernel and its rewrite, as `git diff` would print it."""
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True),
                                        f"a/{name}", f"b/{name}"))
