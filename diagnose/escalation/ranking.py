"""Rank retrieved passages so the one holding the deciding branch comes first.

On top of the hybrid rank, each passage is scanned line by line for a legality condition or
profitability check (an early return, a guard, a comparison or clamp, a can/is/should
predicate). A line counts fully only when it mentions one of the symptom's focus terms
(contiguity, numStages, capability ...); comments and logging never count. The score is

    score = retrieval + condition + provenance

retrieval: the fused reciprocal-rank score of the searches that found it, scaled to (0, 1];
condition: the weight of its best deciding line (0 when none, up to ~2.5);
provenance: 0.5 for the pass's own definition or implementation, 0.3 for an analysis it
consults or the pipeline file that adds it, 1.0 for the handler of an IR op the kernel's facts
name (the code that classifies exactly this kernel's construct: more specific than the pass's
generic driver), 0 for an unfiltered search.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from kb.chunk import Chunk

PROVENANCE_BONUS = {"pass": 0.5, "impl": 0.5, "analysis": 0.3, "pipeline": 0.3, "kernel": 0.3,
                    "handler": 1.0, "open": 0.0}
MARKS_WEIGHT = 0.8  # a call that sets the outcome (`setUnstructured(...)`), named by a kernel question
FOCUS_BONUS = 1.0
UNFOCUSED_FACTOR = 0.4  # a branch on something else: probably not the one that decided
MULTI_KIND_BONUS = 0.2
EXTRA_TERM_BONUS, MAX_EXTRA_TERMS = 0.1, 3
MAX_FOCUSED = 8  # focused deciding lines kept per passage for the rewrite rules  # `min(maxMultiple, maxContig)` reads two facts

# What makes a line (or an `if` with its one-line body) a deciding branch, and how much.
KINDS: tuple[tuple[str, re.Pattern[str], float], ...] = (
    ("early-return", re.compile(
        r"\breturn\s+(?:failure\(\)|false\b|std::nullopt\b|nullptr\b|None\b|-?[01]\s*;|\{\s*\}\s*;)"
        r"|\breturn\s*;|\bcontinue\s*;|signalPassFailure\(\)"), 1.0),
    ("guard", re.compile(r"\bif\s*\(|^\s*(?:el)?if\s+.*:\s*$|\bwhile\s*\("), 0.8),
    ("comparison", re.compile(r"\s(?:<=|>=|==|!=|<|>)\s|\bnot in\b"), 0.8),
    ("clamp", re.compile(r"\bstd::(?:min|max)\b|\b(?:min|max|gcd)\s*[<(]"), 0.8),
    ("predicate", re.compile(r"\b(?:can|is|should|has|supports?|allow)[A-Z_]\w*\s*\("), 0.6),
)
_COMMENT = re.compile(r"^\s*(?://|#|\*|/\*)")
_LOGGING = re.compile(r"\b(?:LDBG|LLVM_DEBUG|DBGS|dbgs|errs|outs|printf|print|logger|logging|"
                      r"emitRemark|emitWarning)\b")
_CODE_LANGUAGES = ("cpp", "c", "python", "")
_CODE_KINDS = ("function", "method", "class", "module", "pipeline", "text")


@dataclass
class DecidingLine:
    """The branch that decided the outcome, as found in a passage."""

    line: int  # 1-based line in the file
    text: str
    kinds: list[str]
    term: str  # the focus term it mentions, '' when none
    weight: float


@dataclass
class Passage:
    """A retrieved chunk, with where it lives, how it ranked and why."""

    id: str
    path: str
    repo: str
    repo_url: str
    commit: str
    start_line: int
    end_line: int
    symbol: str
    kind: str
    backend: str
    permalink: str
    compiler_version: str
    provenance: str
    found_by: list[str]
    retrieval: float
    condition: float
    score: float
    why: str
    deciding: DecidingLine | None = None
    text: str = field(default="", repr=False)
    # the passage's other deciding lines on a focus term, best first: one branch may hold
    # several clauses (rank, num_warps, shape) and kernel facts pick the one that failed
    focused: list[DecidingLine] = field(default_factory=list)

    @property
    def cite(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"

    def to_json(self) -> dict:
        return asdict(self)


def _term_pattern(term: str) -> re.Pattern[str]:
    # Short terms ("vec", "rem", "32") must stand alone as a word part: "rem" is not "remove".
    if len(term) < 4:
        return re.compile(rf"(?<![A-Za-z0-9])(?:{re.escape(term)}|{re.escape(term.capitalize())})"
                          r"(?![a-z0-9])")
    return re.compile(re.escape(term), re.IGNORECASE)


def _starts_word(text: str, i: int) -> bool:
    """A match must start a word or a camelCase part: 'getContiguity' has 'contiguity',
    'conversion' does not have 'version'."""
    return i == 0 or not text[i - 1].isalpha() or text[i].isupper()


def focus_terms(text: str, focus: list[str]) -> list[str]:
    """The focus terms a piece of code mentions, in focus order, counting overlapping terms
    ('contiguity', 'contig') once."""
    found: list[str] = []
    for term in focus:
        if any(_starts_word(text, m.start()) for m in _term_pattern(term).finditer(text)):
            if not any(term.lower() in f.lower() or f.lower() in term.lower() for f in found):
                found.append(term)
    return found


def focus_term(text: str, focus: list[str]) -> str:
    """The first focus term a piece of code mentions, or ''."""
    found = focus_terms(text, focus)
    return found[0] if found else ""


def _statements(body: list[str]) -> list[tuple[int, str]]:
    """(offset, text) per line; an `if (...)` without a body on its line takes the next line."""
    out = []
    for i, line in enumerate(body):
        text = line
        stripped = line.rstrip()
        if re.search(r"\bif\s*\(", line) and not stripped.endswith((";", "{", "}")):
            nxt = next((b for b in body[i + 1 : i + 3] if b.strip()), "")
            text = f"{line.strip()} {nxt.strip()}"
        out.append((i, text))
    return out


# `if (!mask) return failure();`, `if (x == nullptr) return;`: a guard that something exists,
# which every kernel passes; the branch that tests the kernel's property comes after it.
_TRIVIAL_GUARD = re.compile(r"\bif\s*\(\s*(?:!\s*[\w.>-]+|[\w.>-]+\s*==\s*nullptr)\s*\)\s*"
                            r"(?:\{\s*)?return\b")
TRIVIAL_GUARD_FACTOR = 0.3


def _kinds(code: str, marks: re.Pattern[str] | None) -> list[tuple[str, float]]:
    found = [(name, w) for name, rx, w in KINDS if rx.search(code)]
    if marks is not None and marks.search(code):
        found.append(("marks", MARKS_WEIGHT))
    return found


def deciding_lines(chunk: Chunk, focus: list[str], marks: list[str] | tuple = ()) -> list[DecidingLine]:
    """Every deciding branch of a code passage, best first; none for docs, .td and tests.
    `marks`: calls that set the outcome unconditionally (an analysis marking a value
    unstructured decides as much as a branch does)."""
    if chunk.language not in _CODE_LANGUAGES or chunk.kind not in _CODE_KINDS:
        return []
    body = chunk.text.split("\n")[1:]  # line 0 is the chunk header
    mark_rx = re.compile(rf"\b(?:{'|'.join(map(re.escape, marks))})\s*\(") if marks else None
    found = []
    for offset, text in _statements(body):
        if _COMMENT.match(text) or _LOGGING.search(text):
            continue
        code = text.split("//", 1)[0]
        kinds_w = _kinds(code, mark_rx)
        if not kinds_w:
            continue
        kinds = [name for name, _ in kinds_w]
        weight = max(w for _, w in kinds_w)
        weight += MULTI_KIND_BONUS if len(kinds) > 1 else 0.0
        term = focus_term(code, focus)
        weight = weight + FOCUS_BONUS if term else weight * UNFOCUSED_FACTOR
        if _TRIVIAL_GUARD.search(code):
            weight *= TRIVIAL_GUARD_FACTOR  # a presence check decides nothing about the kernel
        if term:
            extra = len(focus_terms(code, focus)) - 1
            weight += EXTRA_TERM_BONUS * min(extra, MAX_EXTRA_TERMS)
        # the whole statement: `if (a &&` alone hides the clause on the next line
        found.append(DecidingLine(chunk.start_line + offset, " ".join(text.split())[:240],
                                  kinds, term, round(weight, 3)))
    return sorted(found, key=lambda d: (-d.weight, d.line))


@dataclass
class Candidate:
    """A chunk as the searches found it, before scoring."""

    id: str
    chunk: Chunk
    fused: float = 0.0
    provenance: str = "open"
    found_by: list[str] = field(default_factory=list)

    def add(self, search: str, provenance: str, weight: float, score: float) -> None:
        self.fused += weight * score
        self.found_by.append(search)
        if PROVENANCE_BONUS[provenance] > PROVENANCE_BONUS[self.provenance]:
            self.provenance = provenance


def _why(p_kind: str, d: DecidingLine | None, provenance: str) -> str:
    if d is None:
        return f"no deciding branch in this {p_kind}; found by the {provenance} search"
    on = f"on '{d.term}'" if d.term else "on none of the symptom's terms"
    return f"line {d.line}: {'/'.join(d.kinds)} {on}: {d.text}"


def rank(candidates: list[Candidate], focus: list[str], marks: list[str] | tuple = ()) -> list[Passage]:
    """Score candidates (see the module docstring) and sort best first."""
    top = max((c.fused for c in candidates), default=0.0) or 1.0
    out = []
    for c in candidates:
        lines = deciding_lines(c.chunk, focus, marks)
        best = lines[0] if lines else None
        condition = best.weight if best else 0.0
        retrieval = c.fused / top
        ch = c.chunk
        out.append(Passage(
            id=c.id, path=ch.path, repo=ch.source, repo_url=ch.repo_url, commit=ch.commit,
            start_line=ch.start_line, end_line=ch.end_line, symbol=ch.symbol, kind=ch.kind,
            backend=ch.backend, permalink=ch.permalink, compiler_version=ch.compiler_version,
            provenance=c.provenance, found_by=c.found_by, retrieval=round(retrieval, 4),
            condition=condition,
            score=round(retrieval + condition + PROVENANCE_BONUS[c.provenance], 4),
            why=_why(ch.kind, best, c.provenance), deciding=best, text=ch.text,
            focused=[d for d in lines if d.term][:MAX_FOCUSED]))
    return sorted(out, key=lambda p: (-p.score, p.path, p.start_line))
