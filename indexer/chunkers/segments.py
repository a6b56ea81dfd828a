"""Language-neutral chunk sizing: line-tiled segments, cAST-style sibling merging,
and splitting of oversized segments at preferred line cuts."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from kb.chunk import Chunk, header

# A single line longer than the budget is cut into character pieces; past this many
# pieces the rest of the line is dropped (minified or generated data, not source).
MAX_PIECES_PER_LINE = 64
# Most names shown in a merged chunk's symbol; the full list goes to extra["symbols"].
MAX_SYMBOL_NAMES = 3

_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")


def text_size(s: str, weigh_cjk: bool = False) -> int:
    """Size of `s` in budget units; CJK characters cost 3 because MiniLM reads each as a token."""
    if not weigh_cjk or s.isascii():
        return len(s)
    return len(s) + 2 * len(_CJK.findall(s))


class Source:
    """A file's text split into lines (on '\\n' only, as tree-sitter counts rows)."""

    def __init__(self, path: str, text: str, weigh_cjk: bool = False) -> None:
        self.path = path
        self.text = text
        self.weigh_cjk = weigh_cjk
        raw = text.split("\n")
        if raw and raw[-1] == "":
            raw.pop()
        self.lines = [ln + "\n" for ln in raw]
        self.offs = [0]
        total = 0
        for ln in self.lines:
            total += text_size(ln, weigh_cjk)
            self.offs.append(total)

    @property
    def n(self) -> int:
        return len(self.lines)

    def size(self, start: int, end: int) -> int:
        """Budget size of rows start..end (0-based, inclusive)."""
        return self.offs[end + 1] - self.offs[start]

    def body(self, start: int, end: int) -> str:
        return "".join(self.lines[start:end + 1]).rstrip("\n")

    def blank(self, row: int) -> bool:
        return not self.lines[row].strip()

    def trim(self, start: int, end: int) -> tuple[int, int]:
        """Drop blank rows at both ends; returns (start, end) with end < start if all blank."""
        while start <= end and self.blank(start):
            start += 1
        while end >= start and self.blank(end):
            end -= 1
        return start, end


@dataclass
class Segment:
    """A run of whole rows that will become one chunk, or several if oversized.

    `named` segments are definitions with a symbol of their own; unnamed ones are glue
    (includes, declarations, module code). `atomic` segments never merge with another
    named segment (glue may still be absorbed). `cuts` are rows where a split is preferred;
    `cut_source` computes more of them lazily for an oversized segment.
    """

    start: int
    end: int
    kind: str
    symbol: str = ""
    scope: str = ""
    named: bool = False
    atomic: bool = False
    final: bool = False  # already merged at an inner level (a split class): merge no further
    cuts: list[int] = field(default_factory=list)
    strong_cuts: list[int] = field(default_factory=list)  # preferred over `cuts`
    names: list[str] = field(default_factory=list)
    extra: dict = field(default_factory=dict)
    cut_source: object = None  # callable(budget) -> list[int], for oversized segments


def _can_merge(a: Segment, b: Segment, src: Source, max_chars: int, min_chars: int) -> bool:
    if a.final or b.final:
        return False
    if (a.atomic and b.named) or (b.atomic and a.named):
        return False
    size = src.size(a.start, b.end)
    if size > max_chars:
        return False
    small_a = src.size(a.start, a.end) < min_chars or not a.named
    small_b = src.size(b.start, b.end) < min_chars or not b.named
    if not (small_a or small_b):
        return False
    first = a if a.named or not b.named else b
    names = a.names + [n for n in b.names if n not in a.names]
    head = header(src.path, first.scope, symbol_of(names, first.symbol))
    return size <= body_budget(src, max_chars, head)


def _merged(a: Segment, b: Segment) -> Segment:
    first = a if a.named or not b.named else b
    names = a.names + [n for n in b.names if n not in a.names]
    extra = {**b.extra, **a.extra}
    for key in ("pass_refs",):
        refs = a.extra.get(key, []) + [r for r in b.extra.get(key, []) if r not in a.extra.get(key, [])]
        if refs:
            extra[key] = refs
    return Segment(
        start=a.start, end=b.end, kind=first.kind, symbol=first.symbol, scope=first.scope,
        named=a.named or b.named, atomic=a.atomic or b.atomic, cuts=a.cuts + [b.start] + b.cuts,
        names=names, extra=extra,
    )


def merge_siblings(segs: list[Segment], src: Source, max_chars: int,
                   min_chars: int) -> list[Segment]:
    """Greedily merge neighbouring segments while one of them is small and the merged
    chunk, header included, still fits max_chars."""
    out: list[Segment] = []
    for seg in segs:
        if out and _can_merge(out[-1], seg, src, max_chars, min_chars):
            out[-1] = _merged(out[-1], seg)
        else:
            out.append(seg)
    return out


def pack_rows(src: Source, start: int, end: int, cuts: list[int], budget: int,
              overlap: int = 0, strong: list[int] | None = None) -> list[tuple[int, int]]:
    """Split rows start..end into pieces within `budget`, cutting at `strong` cuts, else at
    `cuts`, where it can; when greedy packing leaves a tiny last piece, repack with a
    smaller, even target."""
    tiers = [sorted({c for c in tier if start < c <= end}) for tier in (strong or [], cuts)]
    pieces = _greedy(src, start, end, tiers, budget, overlap)
    last = pieces[-1]
    if len(pieces) > 1 and src.size(last[0], last[1]) < budget // 4:
        target = src.size(start, end) // len(pieces) * 5 // 4
        even = _greedy(src, start, end, tiers, min(budget, max(target, 1)), overlap)
        if len(even) <= len(pieces):
            return even
    return pieces


def _greedy(src: Source, start: int, end: int, tiers: list[list[int]], budget: int,
            overlap: int) -> list[tuple[int, int]]:
    """A cut is used when the piece before it is at least a quarter of the budget; otherwise
    the piece runs to the last row that fits. A single row over budget is a piece alone."""
    pieces: list[tuple[int, int]] = []
    s = start
    while s <= end:
        limit = src.offs[s] + budget
        e_max = bisect_right(src.offs, limit, lo=s + 1) - 2  # last row whose end fits
        e_max = max(e_max, s)
        if e_max >= end:
            pieces.append((s, end))
            break
        e, clean = e_max, False
        for cut_rows in tiers:
            i = bisect_right(cut_rows, e_max + 1) - 1
            if i >= 0 and cut_rows[i] > s and src.size(s, cut_rows[i] - 1) >= budget // 4:
                e, clean = cut_rows[i] - 1, True
                break
        pieces.append((s, e))
        # only a cut through running text repeats a few rows of context in the next piece
        s = e + 1 if clean or e - s < 2 * overlap else max(e + 1 - overlap, s + 1)
    return pieces


def _char_pieces(line: str, budget: int, weigh_cjk: bool) -> tuple[list[str], bool]:
    """Cut one over-long line into pieces of at most `budget` units, at most
    MAX_PIECES_PER_LINE of them (the second value says whether the rest was dropped)."""
    if not weigh_cjk or line.isascii():
        pieces = [line[i:i + budget] for i in range(0, len(line), budget)]
        return pieces[:MAX_PIECES_PER_LINE], len(pieces) > MAX_PIECES_PER_LINE
    pieces: list[str] = []
    start = used = 0
    for i, ch in enumerate(line):
        cost = text_size(ch, True)
        if used + cost > budget:
            pieces.append(line[start:i])
            if len(pieces) == MAX_PIECES_PER_LINE:
                return pieces, True
            start, used = i, 0
        used += cost
    pieces.append(line[start:])
    return pieces, False


def symbol_of(names: list[str], fallback: str) -> str:
    """The symbol a chunk of several definitions shows: its first few names."""
    if not names:
        return fallback
    shown = names[:MAX_SYMBOL_NAMES]
    return ", ".join(shown) + (", ..." if len(names) > MAX_SYMBOL_NAMES else "")


def body_budget(src: Source, max_chars: int, head: str) -> int:
    """Room left for the body once the header line is in; never squeezed below a quarter."""
    return max(max_chars - text_size(head, src.weigh_cjk) - 1, max_chars // 4, 40)


def emit(seg: Segment, src: Source, max_chars: int, language: str,
         overlap: int = 0) -> list[Chunk]:
    """Turn a segment into chunks: one if it fits, else pieces split at its cuts."""
    start, end = src.trim(seg.start, seg.end)
    if end < start:
        return []
    symbol = seg.symbol
    extra = dict(seg.extra)
    if len(seg.names) > 1:
        symbol = symbol_of(seg.names, seg.symbol)
        extra["symbols"] = list(seg.names)
    head = header(src.path, seg.scope, symbol)
    budget = body_budget(src, max_chars, head)

    def make(s: int, e: int, body: str, part_extra: dict) -> Chunk:
        return Chunk(text=head + "\n" + body, path=src.path, start_line=s + 1, end_line=e + 1,
                     kind=seg.kind, symbol=symbol, scope=seg.scope, language=language,
                     extra={**extra, **part_extra})

    if src.size(start, end) <= budget:
        return [make(start, end, src.body(start, end), {})]
    cuts = list(seg.cuts)
    if seg.cut_source is not None:
        cuts += seg.cut_source(budget)
    pieces = pack_rows(src, start, end, cuts, budget, overlap, seg.strong_cuts)
    chunks: list[Chunk] = []
    for s, e in pieces:
        s, e = src.trim(s, e)
        if e < s:
            continue
        body = src.body(s, e)
        if text_size(body, src.weigh_cjk) <= budget:
            chunks.append(make(s, e, body, {}))
            continue
        texts, truncated = _char_pieces(body, budget, src.weigh_cjk)
        for t in texts:
            chunks.append(make(s, e, t, {"truncated": True} if truncated else {}))
    for i, c in enumerate(chunks):
        c.extra["part"] = f"{i + 1}/{len(chunks)}"
    return chunks


_BLOCK_END = re.compile(r"^\}")


def window_segments(src: Source, kind: str = "text", braces: bool = False) -> list[Segment]:
    """The whole file as one segment; `emit` with overlap turns it into line windows, cut
    at blank rows, or for brace languages first after a `}` in column 0 (a block's end)."""
    if src.n == 0:
        return []
    cuts = [r + 1 for r in range(src.n - 1) if src.blank(r)]
    strong = [r + 1 for r in range(src.n - 1) if _BLOCK_END.match(src.lines[r])] if braces else []
    return [Segment(0, src.n - 1, kind, cuts=cuts, strong_cuts=strong)]


def tile(items: list[Segment], lo: int, hi: int, glue_kind: str, scope: str = "",
         symbol: str = "") -> list[Segment]:
    """Make items cover rows lo..hi without overlap: each absorbs the gap above it (comments,
    blank rows) and the last absorbs the tail; items wholly on covered rows are dropped."""
    out: list[Segment] = []
    cursor = lo
    for it in items:
        if it.end < cursor:
            continue
        it.start = cursor
        cursor = it.end + 1
        out.append(it)
    if out and cursor <= hi:
        out[-1].end = hi
    elif not out and lo <= hi:
        out.append(Segment(lo, hi, glue_kind, symbol=symbol, scope=scope))
    return out
