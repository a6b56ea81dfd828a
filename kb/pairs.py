"""Training pairs for the embedding model, mined from the indexed corpus itself.

A pair is (query, document): prose the compiler's authors wrote about some code, and that code
in the view the index embeds (kb.embed.as_words of the chunk text). Four miners, each over the
stored chunks or the pass registry, never over any question set:

- `doc_comment`: a function's leading comment or docstring -> the function without it;
- `inline_comment`: the longest comment block inside a function -> the function without it
  (these read like the "why" of a branch: "cannot vectorize when the mask is not contiguous");
- `pass`: a pass's TableGen summary (+ description) -> the chunk of its implementing class;
- `symbol`: the symbol's name split into words -> the function without its header line.

The prose is removed from the document side, so the model has to learn what code that does
the thing looks like rather than to copy words. `with_negatives` gives each pair a hard negative:
the code chunk of another file that BM25 ranks highest for the query (it shares the query's words
but is not the code the prose was written about).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass

from kb.embed import as_words

CODE_KINDS = ("function", "method", "class")
# Share of the pair budget per miner, in the order they are filled; pass pairs are all kept.
QUOTAS = (("pass", 1.0), ("doc_comment", 0.5), ("inline_comment", 0.3), ("symbol", 0.2))
MIN_WORDS, MAX_WORDS = 5, 64
_SKIP_SOURCES = ("passwise-patterns", "passwise-notes")  # our own cards: not the corpus
_TEST_PATH = re.compile(r"(^|/)(tests?|unittest|testing)(/|$)|(^|/)test_[^/]*$")
_BOILERPLATE = re.compile(r"copyright|license|spdx|permission is hereby|-\*- c\+\+ -\*-|"
                          r"\bnolint\b|clang-format|todo\b|fixme\b", re.I)
_CPP_COMMENT = re.compile(r"^\s*(///?|/\*+|\*/|\*(?!=))")
_PY_COMMENT = re.compile(r"^\s*#")
_DOCSTRING = re.compile(r'^\s*[rub]*("""|\'\'\')')


@dataclass(frozen=True)
class Pair:
    """One training example: query prose, the document in the embedded view, and its origin."""

    query: str
    document: str
    miner: str
    chunk_id: str
    negative: str = ""  # a hard negative document (with_negatives), empty without one


def _is_comment(line: str, language: str) -> bool:
    return bool((_PY_COMMENT if language == "python" else _CPP_COMMENT).match(line))


def _prose(lines: list[str]) -> str | None:
    """Comment lines as words, or None when they are boilerplate, a banner, or too short."""
    text = " ".join(lines)
    if _BOILERPLATE.search(text):
        return None
    words = as_words(text).split()
    if len(words) < MIN_WORDS:
        return None
    return " ".join(words[:MAX_WORDS])


def _short_name(symbol: str) -> str:
    first = symbol.split(",")[0].strip()
    return re.split(r"::|\.", first)[-1] if first else ""


def _def_line(body: list[str], name: str, language: str) -> int | None:
    """Index of the first code line naming the symbol (where the definition starts)."""
    if not name:
        return None
    pat = re.compile(rf"\b(def|class)\s+{re.escape(name)}\b" if language == "python"
                     else rf"\b{re.escape(name)}\b")
    for i, line in enumerate(body):
        if pat.search(line) and not _is_comment(line, language):
            return i
    return None


def _leading_block(body: list[str], at: int, language: str) -> tuple[int, int] | None:
    """The comment block right above line `at` (blank lines end it), as a [lo, hi) range."""
    hi = at
    lo = at
    while lo > 0 and _is_comment(body[lo - 1], language) and body[lo - 1].strip():
        lo -= 1
    return (lo, hi) if lo < hi else None


def _docstring(body: list[str], at: int) -> tuple[int, int] | None:
    """The docstring after a Python `def`/`class` line at `at` (signature may wrap)."""
    i = at
    while i < len(body) and not body[i].rstrip().endswith(":"):
        i += 1
    i += 1
    if i >= len(body) or not _DOCSTRING.match(body[i]):
        return None
    quote = _DOCSTRING.match(body[i]).group(1)
    rest = body[i].split(quote, 1)[1]
    if quote in rest:
        return (i, i + 1)
    for j in range(i + 1, len(body)):
        if quote in body[j]:
            return (i, j + 1)
    return None


def _strip(lines: list[str], quote: str | None = None) -> list[str]:
    out = []
    for line in lines:
        s = re.sub(r"^\s*(///?|/\*+|\*/|\*|#+)", "", line).replace("*/", "")
        out.append(s.replace(quote, "") if quote else s)
    return out


def _document(header: str, body: list[str], drop: tuple[int, int] | None = None,
              keep_header: bool = True) -> str:
    kept = body if drop is None else body[: drop[0]] + body[drop[1]:]
    return as_words("\n".join(([header] if keep_header else []) + kept))


def _inline_blocks(body: list[str], start: int, language: str) -> list[tuple[int, int]]:
    """Comment blocks (consecutive comment lines) after line `start`."""
    blocks, lo = [], None
    for i in range(start + 1, len(body) + 1):
        inside = i < len(body) and _is_comment(body[i], language) and body[i].strip()
        if inside and lo is None:
            lo = i
        elif not inside and lo is not None:
            blocks.append((lo, i))
            lo = None
    return blocks


def code_pairs(cid: str, text: str, meta: dict) -> list[Pair]:
    """Every pair a function, method or class chunk yields (one per miner at most)."""
    if meta.get("kind") not in CODE_KINDS or meta.get("language") not in ("cpp", "python"):
        return []
    if meta.get("source") in _SKIP_SOURCES or _TEST_PATH.search(meta.get("path", "")):
        return []
    language = meta["language"]
    header, _, rest = text.partition("\n")
    body = rest.splitlines()
    name = _short_name(meta.get("symbol", ""))
    at = _def_line(body, name, language)
    if at is None:
        return []
    out: list[Pair] = []
    lead = _docstring(body, at) if language == "python" else _leading_block(body, at, language)
    if lead is not None:
        quote = '"""' if language == "python" else None
        query = _prose(_strip(body[lead[0]:lead[1]], quote))
        if query:
            out.append(Pair(query, _document(header, body, lead), "doc_comment", cid))
    blocks = [b for b in _inline_blocks(body, at, language) if b != lead]
    scored = [(len(as_words(" ".join(body[lo:hi])).split()), (lo, hi)) for lo, hi in blocks]
    for _, (lo, hi) in sorted(scored, key=lambda x: (-x[0], x[1]))[:1]:
        query = _prose(_strip(body[lo:hi]))
        if query:
            out.append(Pair(query, _document(header, body, (lo, hi)), "inline_comment", cid))
    words = as_words(name).split()
    if len(words) >= 3:  # `get vector width` says something; `run`, `visit` do not
        out.append(Pair(" ".join(words), _document(header, body, lead, keep_header=False),
                        "symbol", cid))
    return out


def pass_pairs(records: Iterable[dict], chunks: dict[tuple[str, str], list[tuple[str, str, dict]]]
               ) -> list[Pair]:
    """For each pass with a summary: its prose -> the chunk holding its implementing class
    (its registry anchors), falling back to its create function. `chunks` maps
    (source, path) to that file's (id, text, metadata) rows."""
    out = []
    for rec in sorted(records, key=lambda r: (r.get("backend", ""), r.get("argument", ""))):
        query = _prose([rec.get("summary", ""), rec.get("description", "")])
        if not query:
            continue
        for anchor in sorted(rec.get("impl_anchors", []),
                             key=lambda a: (a.get("kind") != "class", a.get("path", ""))):
            hit = _overlapping(chunks.get((anchor.get("source"), anchor.get("path")), []), anchor)
            if hit is not None:
                cid, text, _ = hit
                out.append(Pair(query, as_words(text), "pass", cid))
                break
    return out


def _overlapping(rows: list[tuple[str, str, dict]], anchor: dict) -> tuple[str, str, dict] | None:
    """The first code chunk of the anchor's file (by start line) that overlaps the anchor."""
    for row in sorted(rows, key=lambda r: int(r[2].get("start_line") or 0)):
        m = row[2]
        if m.get("kind") in CODE_KINDS and int(m.get("start_line") or 0) <= anchor["end_line"] \
                and int(m.get("end_line") or 0) >= anchor["start_line"]:
            return row
    return None


def mine(rows: Iterable[tuple[str, str, dict]], records: Iterable[dict], cap: int,
         seed: int = 0) -> list[Pair]:
    """At most `cap` pairs from the stored chunks and the registry's pass records, drawn per
    QUOTAS with a seeded generator: the same index and seed give the same list. A query that
    occurs twice (boilerplate such as `/// Returns the result.`) is dropped everywhere."""
    by_file: dict[tuple[str, str], list[tuple[str, str, dict]]] = {}
    mined: list[Pair] = []
    for cid, text, meta in sorted(rows, key=lambda r: r[0]):
        by_file.setdefault((meta.get("source", ""), meta.get("path", "")), []).append((cid, text, meta))
        mined.extend(code_pairs(cid, text, meta))
    mined.extend(pass_pairs(records, by_file))
    counts = Counter(p.query for p in mined)
    mined = [p for p in mined if counts[p.query] == 1 and p.document]
    rng = random.Random(seed)
    chosen: list[Pair] = []
    for miner, share in QUOTAS:
        pool = [p for p in mined if p.miner == miner]
        rng.shuffle(pool)
        chosen.extend(pool[: max(0, min(len(pool), int(share * cap), cap - len(chosen)))])
    rng.shuffle(chosen)
    return chosen


def with_negatives(pairs: list[Pair], rows: dict[str, tuple[str, dict]],
                   top: Callable[[str, int], list[str]]) -> list[Pair]:
    """Each pair with a hard negative: among the first 20 chunks `top(query, n)` ranks (chunk
    ids, best first; BM25 over the index), the first code chunk of another file (a header and its
    .cpp count as one) and another symbol (a vendored or installed copy of the same function is
    no negative) that is neither test code nor ours. `rows` maps chunk id to (text, metadata). Pairs without one are dropped,
    so every batch has as many negatives as queries."""
    out = []
    for p in pairs:
        own = rows.get(p.chunk_id, ("", {}))[1]
        for cid in top(p.query, 20):
            text, meta = rows.get(cid, ("", {}))
            if _negative_ok(meta, own) and cid != p.chunk_id:
                out.append(Pair(p.query, p.document, p.miner, p.chunk_id, as_words(text)))
                break
    return out


def _negative_ok(meta: dict, own: dict) -> bool:
    return (meta.get("kind") in CODE_KINDS and meta.get("source") not in _SKIP_SOURCES
            and not _TEST_PATH.search(meta.get("path", ""))
            and _file_stem(meta) != _file_stem(own)
            and _short_name(meta.get("symbol", "")) != _short_name(own.get("symbol", "")))


def _file_stem(meta: dict) -> tuple[str, str]:
    """Source and path without the extension: a header and its implementation are one file here
    (the class declaration is no negative for its method)."""
    return meta.get("source", ""), meta.get("path", "").rsplit(".", 1)[0]


def pairs_sha256(pairs: list[Pair]) -> str:
    """The checksum of a pair set, in its training order (a pair without a negative hashes as
    it did before negatives existed, so older pins still hold)."""
    h = hashlib.sha256()
    for p in pairs:
        row = {k: v for k, v in asdict(p).items() if k != "negative" or v}
        h.update(json.dumps(row, sort_keys=True).encode() + b"\n")
    return h.hexdigest()
