"""Markdown (and reStructuredText) chunker: one chunk per section, scoped by its heading
path ("Guide > Debugging > IR dumps"); fenced code is never mistaken for headings."""

from __future__ import annotations

import re
from dataclasses import dataclass

from indexer.chunkers.segments import Segment, Source, emit, merge_siblings
from kb.chunk import Chunk

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_RST_RULE = re.compile(r"^([=\-~^\"'`*+#:.<>_])\1{2,}\s*$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")


@dataclass
class Heading:
    row: int
    level: int
    title: str
    body_start: int  # first row after the heading (and its underline)


def fence_rows(lines: list[str]) -> list[bool]:
    """For each row, whether it lies inside (or on the edge of) a fenced code block."""
    inside = [False] * len(lines)
    fence = ""
    for i, line in enumerate(lines):
        m = _FENCE.match(line)
        if fence:
            inside[i] = True
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and not line.strip().strip(fence[0]):
                fence = ""
        elif m and not (m.group(1)[0] == "`" and "`" in line[m.end():]):
            fence = m.group(1)
            inside[i] = True
    return inside


def _front_matter_end(lines: list[str]) -> int:
    if lines and lines[0].strip() == "---":
        for i in range(1, min(len(lines), 200)):
            if lines[i].strip() in ("---", "..."):
                return i + 1
    return 0


def markdown_headings(lines: list[str]) -> list[Heading]:
    """ATX (`## Title`) and setext (Title / ----) headings outside code fences."""
    fenced = fence_rows(lines)
    out: list[Heading] = []
    for i in range(_front_matter_end(lines), len(lines)):
        if fenced[i]:
            continue
        m = _ATX.match(lines[i].rstrip("\n"))
        if m:
            out.append(Heading(i, len(m.group(1)), (m.group(2) or "").strip(), i + 1))
            continue
        if i + 1 < len(lines) and not fenced[i + 1] and _is_setext(lines, i, out):
            level = 1 if lines[i + 1].lstrip()[0] == "=" else 2
            out.append(Heading(i, level, lines[i].strip(), i + 2))
    return out


def _is_setext(lines: list[str], i: int, found: list[Heading]) -> bool:
    text = lines[i].strip()
    if not text or not _SETEXT.match(lines[i + 1]) or _LIST_ITEM.match(lines[i]):
        return False
    if found and found[-1].row == i - 1:
        return False  # underline of a heading just found
    if text.startswith(("|", ">", "<")) or "|" in lines[i + 1]:
        return False  # tables, quotes, html
    return i == 0 or not lines[i - 1].strip()


def rst_headings(lines: list[str]) -> list[Heading]:
    """Titles underlined (optionally overlined) with a repeated punctuation character;
    levels follow the order in which underline styles first appear."""
    styles: list[tuple[str, bool]] = []
    out: list[Heading] = []
    i = 0
    while i + 1 < len(lines):
        title, under = lines[i].strip(), lines[i + 1].rstrip("\n")
        over = i > 0 and _RST_RULE.match(lines[i - 1]) is not None
        if title and not _RST_RULE.match(lines[i]) and _RST_RULE.match(under) \
                and len(under.strip()) >= len(title):
            style = (under.strip()[0], over)
            if style not in styles:
                styles.append(style)
            row = i - 1 if over else i
            out.append(Heading(row, styles.index(style) + 1, title, i + 2))
            i += 2
            continue
        i += 1
    return out


def _cuts(lines: list[str]) -> list[int]:
    """Paragraph starts and fence starts; never a row inside a fence."""
    fenced = fence_rows(lines)
    return [i for i in range(1, len(lines))
            if (not fenced[i] and not lines[i - 1].strip())
            or (fenced[i] and not fenced[i - 1])]


def _section_segments(src: Source, headings: list[Heading]) -> list[Segment]:
    segs: list[Segment] = []
    first = headings[0].row if headings else src.n
    if first > 0:
        segs.append(Segment(0, first - 1, "doc_section"))
    stack: list[Heading] = []
    for k, h in enumerate(headings):
        end = headings[k + 1].row - 1 if k + 1 < len(headings) else src.n - 1
        while stack and stack[-1].level >= h.level:
            stack.pop()
        stack.append(h)
        path = " > ".join(x.title for x in stack if x.title)
        segs.append(Segment(h.row, end, "doc_section", symbol=h.title, scope=path,
                            named=bool(h.title), names=[h.title] if h.title else [],
                            extra={"level": h.level, "body_start": h.body_start}))
    return segs


def _fold_bare_headings(segs: list[Segment], src: Source) -> list[Segment]:
    """A heading with no text of its own joins the section after it, which keeps its
    (deeper) heading path: '# Guide' + '## Debugging ...' reads as Guide > Debugging."""
    out: list[Segment] = []
    pending: Segment | None = None
    for seg in segs:
        if pending is not None:
            seg.start = pending.start
            pending = None
        body_start = seg.extra.get("body_start", seg.start)
        first_text, last_text = src.trim(body_start, seg.end)
        if seg.named and last_text < first_text:
            pending = seg
            continue
        out.append(seg)
    if pending is not None:
        out.append(pending)
    for seg in out:
        seg.extra.pop("body_start", None)
    return out


def chunk_markdown(src: Source, max_chars: int, min_chars: int, rst: bool = False) -> list[Chunk]:
    """Chunks of a Markdown or reST document, one per section where sizes allow."""
    headings = rst_headings(src.lines) if rst else markdown_headings(src.lines)
    segs = _fold_bare_headings(_section_segments(src, headings), src)
    cuts = _cuts(src.lines)
    for seg in segs:
        seg.cut_source = lambda _budget: cuts
    segs = merge_siblings(segs, src, max_chars, min_chars)
    return [c for seg in segs for c in emit(seg, src, max_chars, "rst" if rst else "markdown")]
