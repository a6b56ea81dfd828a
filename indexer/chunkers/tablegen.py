"""TableGen chunker: a brace-aware statement splitter (no grammar is packaged for .td).
One chunk per record; pass records become kind "pass_def" with their pass argument."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from indexer.chunkers.segments import Segment, Source, emit, merge_siblings, tile
from kb.chunk import Chunk

# Statements whose `{ ... }` after `in` / `then` / `else` / `=` holds more statements.
CONTAINERS = frozenset({"let", "foreach", "defset", "if", "else"})
# Statements that define one named record.
RECORDS = frozenset({"def", "defm", "class", "multiclass", "defvar", "deftype"})
# Containers nested deeper than this are chunked whole.
MAX_DEPTH = 16

_TOKEN = re.compile(r"""
    (?P<line_comment>//[^\n]*)
  | (?P<block_comment>/\*)
  | (?P<string>"(?:[^"\\\n]|\\.)*"?)
  | (?P<code>\[\{)
  | (?P<open>\{)
  | (?P<close>\})
  | (?P<semi>;)
  | (?P<angle_open><)
  | (?P<angle_close>>)
  | (?P<directive>^[ \t]*\#[^\n]*)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
""", re.X | re.M)
_COMMENT_EDGE = re.compile(r"/\*|\*/")
_PASS_ARG = re.compile(r"\b\w*Pass\s*<\s*\"([^\"]+)\"")


@dataclass
class Token:
    kind: str
    start: int
    end: int
    text: str
    line_end: int = 0  # offset of the newline ending the token's line (for `include`)


@dataclass
class Statement:
    """One top-level statement: character span, leading keyword, name and body span."""

    start: int
    end: int
    keyword: str
    name: str = ""
    head_end: int = 0  # where the record's body `{` or final `;` begins
    body: tuple[int, int] | None = None  # inner span of a container's `{ }`
    children: list[Statement] = field(default_factory=list)


def tokenize(text: str) -> list[Token]:
    """Tokens that matter for statement structure; comments, strings and [{ }] code
    blocks are skipped whole so the braces and semicolons inside them do not count."""
    tokens: list[Token] = []
    pos, n = 0, len(text)
    while pos < n:
        m = _TOKEN.search(text, pos)
        if m is None:
            break
        kind = m.lastgroup or ""
        if kind == "block_comment":
            pos = _skip_block_comment(text, m.end())
            continue
        if kind == "code":
            close = text.find("}]", m.end())
            pos = n if close < 0 else close + 2
            continue
        pos = m.end()
        if kind not in ("line_comment", "string"):
            tok = Token(kind, m.start(), m.end(), m.group())
            if tok.text == "include":
                nl = text.find("\n", tok.end)
                tok.line_end = n if nl < 0 else nl
            tokens.append(tok)
    return tokens


def _skip_block_comment(text: str, pos: int) -> int:
    depth = 1  # TableGen block comments nest
    while depth:
        m = _COMMENT_EDGE.search(text, pos)
        if m is None:
            return len(text)
        depth += 1 if m.group() == "/*" else -1
        pos = m.end()
    return pos


def parse_statements(tokens: list[Token], i: int, stop: int, depth: int = 0
                     ) -> tuple[list[Statement], int]:
    """Statements from tokens[i:] until a `}` closes the enclosing block (or `stop`)."""
    out: list[Statement] = []
    while i < stop:
        tok = tokens[i]
        if tok.kind == "close":
            return out, i
        if tok.kind == "directive":
            out.append(Statement(tok.start, tok.end, "#"))
            i += 1
        elif tok.kind == "word" and tok.text == "include":
            # `include "path"` has no terminator: it ends with its line
            stmt = Statement(tok.start, tok.end, "include")
            i += 1
            while i < stop and tokens[i].start <= tok.line_end:
                i += 1
            out.append(stmt)
        elif tok.kind == "word":
            stmt, i = _statement(tokens, i, stop, depth)
            out.append(stmt)
        else:
            i += 1  # stray `;` or `<`: nothing to chunk
    return out, i


def _statement(tokens: list[Token], i: int, stop: int, depth: int) -> tuple[Statement, int]:
    first = tokens[i]
    stmt = Statement(first.start, first.end, first.text)
    if i + 1 < stop and tokens[i + 1].kind == "word" and first.text in RECORDS:
        stmt.name = tokens[i + 1].text
    angle, prev = 0, first
    i += 1
    while i < stop:
        tok = tokens[i]
        if tok.kind == "semi" and angle <= 0:
            stmt.head_end = tok.start
            stmt.end = tok.end
            return stmt, i + 1
        if tok.text == "in" and first.text in CONTAINERS and _starts_statement(tokens, i + 1, stop):
            # `let x = 1 in def Foo ...;`: the prefix scopes one statement, chunked as itself
            inner, j = _statement(tokens, i + 1, stop, depth + 1)
            stmt.children, stmt.body, stmt.end = [inner], (tok.end + 1, inner.end), inner.end
            return stmt, j
        if tok.kind == "angle_open":
            angle += 1
        elif tok.kind == "angle_close":
            angle -= 1
        elif tok.kind == "close":  # unbalanced: end the statement before it
            stmt.end = prev.end
            return stmt, i
        elif tok.kind == "open" and angle <= 0:
            return _braced(stmt, tokens, i, stop, depth, prev)
        elif tok.kind == "open":
            i = _skip_braces(tokens, i, stop)
            prev = tokens[i - 1]
            continue
        prev = tok
        i += 1
    stmt.end = prev.end
    return stmt, i


def _starts_statement(tokens: list[Token], i: int, stop: int) -> bool:
    return i < stop and tokens[i].kind == "word" and (
        tokens[i].text in RECORDS or tokens[i].text in CONTAINERS)


def _braced(stmt: Statement, tokens: list[Token], i: int, stop: int, depth: int,
            prev: Token) -> tuple[Statement, int]:
    """A statement reaching `{`: a container body after `in`/`then`/`else`, else a record body."""
    opener = tokens[i]
    stmt.head_end = opener.start
    holds_statements = (stmt.keyword in CONTAINERS and prev.text in ("in", "then", "else", "=")
                        and depth < MAX_DEPTH)
    if holds_statements:
        children, j = parse_statements(tokens, i + 1, stop, depth + 1)
        stmt.children = children
        end_tok = tokens[j] if j < stop else tokens[stop - 1]
        stmt.body = (opener.end, end_tok.start)
        stmt.end = end_tok.end
        j += 1
        if stmt.keyword == "if" and j < stop and tokens[j].text == "else":
            return _statement_tail(stmt, tokens, j, stop, depth)
        return stmt, j
    j = _skip_braces(tokens, i, stop)
    stmt.end = tokens[j - 1].end
    return stmt, j


def _statement_tail(stmt: Statement, tokens: list[Token], j: int, stop: int,
                    depth: int) -> tuple[Statement, int]:
    tail, k = _statement(tokens, j, stop, depth)
    stmt.children.extend(tail.children)
    stmt.end = tail.end
    return stmt, k


def _skip_braces(tokens: list[Token], i: int, stop: int) -> int:
    """Index just past the `}` matching the `{` at tokens[i]."""
    level = 0
    while i < stop:
        kind = tokens[i].kind
        if kind == "open":
            level += 1
        elif kind == "close":
            level -= 1
            if level == 0:
                return i + 1
        i += 1
    return stop


class TableGenChunker:
    """Turns parsed statements into tiled, merged segments."""

    def __init__(self, src: Source, max_chars: int, min_chars: int) -> None:
        self.src = src
        self.max_chars = max_chars
        self.min_chars = min_chars
        # Row of each character offset is found by bisecting line starts.
        self.line_starts = [0]
        for line in src.lines:
            self.line_starts.append(self.line_starts[-1] + len(line))

    def row(self, offset: int) -> int:
        return max(bisect_right(self.line_starts, offset) - 1, 0)

    def segments(self, stmts: list[Statement]) -> list[Segment]:
        items = self.items(stmts, "")
        items = tile(items, 0, self.src.n - 1, "module")
        return merge_siblings(items, self.src, self.max_chars, self.min_chars)

    def items(self, stmts: list[Statement], scope: str) -> list[Segment]:
        out: list[Segment] = []
        for st in stmts:
            s, e = self.row(st.start), self.row(max(st.end - 1, st.start))
            if st.children:
                inner_scope = " > ".join(p for p in (scope, _head(self.src.text, st)) if p)
                out.extend(self.items(st.children, inner_scope))
            elif st.keyword in RECORDS:
                out.append(self.record(st, s, e, scope))
            else:
                out.append(Segment(s, e, "module", scope=scope))
        return out

    def record(self, st: Statement, s: int, e: int, scope: str) -> Segment:
        head = self.src.text[st.start:st.head_end or st.end]
        arg = _PASS_ARG.search(head) if st.keyword == "def" else None
        cuts = self._inner_cuts(s, e)
        if arg:
            return Segment(s, e, "pass_def", symbol=st.name, scope=scope, named=True,
                           atomic=True, names=[st.name], cuts=cuts,
                           extra={"td": st.keyword, "pass_arg": arg.group(1)})
        return Segment(s, e, "record", symbol=st.name, scope=scope, named=bool(st.name),
                       names=[st.name] if st.name else [], extra={"td": st.keyword}, cuts=cuts)

    def _inner_cuts(self, s: int, e: int) -> list[int]:
        """Rows starting a `let` or nested record inside a long record body."""
        if self.src.size(s, e) <= self.max_chars:
            return []
        rows = []
        for r in range(s + 1, e + 1):
            stripped = self.src.lines[r].lstrip()
            if stripped.startswith(("let ", "def ", "defm ", "//")) or not stripped:
                rows.append(r)
        return rows


def _head(text: str, st: Statement) -> str:
    """A container's header, e.g. 'let hasSideEffects = 0 in', on one line."""
    end = st.body[0] - 1 if st.body else st.end
    head = " ".join(text[st.start:end].split())
    return head if len(head) <= 80 else head[:77] + "..."


def chunk_tablegen(src: Source, max_chars: int, min_chars: int) -> list[Chunk]:
    """Chunks of a .td file; pass records carry their pass argument in `passes`."""
    tokens = tokenize(src.text)
    stmts, _ = _all_statements(tokens)
    segs = TableGenChunker(src, max_chars, min_chars).segments(stmts)
    chunks = [c for seg in segs for c in emit(seg, src, max_chars, "tablegen")]
    for c in chunks:
        arg = c.extra.pop("pass_arg", None)
        if arg:
            c.passes = [arg]
    return chunks


def _all_statements(tokens: list[Token]) -> tuple[list[Statement], int]:
    """Top-level statements; a stray `}` at top level is stepped over, not an end."""
    out: list[Statement] = []
    i = 0
    while i < len(tokens):
        stmts, i = parse_statements(tokens, i, len(tokens))
        out.extend(stmts)
        i += 1  # past a stray `}`
    return out, i
