"""Code-aware tokens for the lexical index: whole identifiers, their parts, stems, CJK bigrams.

A kernel developer asks in words ("why are my loads not vectorized"); the compiler answers in
identifiers (`getVectorWidth`, `isVectorizable`, `tritongpu-coalesce`). Both sides are cut the
same way: every identifier is kept whole (exact names still match exactly) and split at
camelCase, snake_case, `::`, dots and dashes; every word is also reduced to its Snowball stem,
so `vectorized`, `vectorization` and `VectorizeOps` meet at `vector`.
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:(?:[-.]|::)[A-Za-z_][A-Za-z0-9_]*)*|[0-9]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_SPLIT = re.compile(r"::|[-._]")
_CJK = re.compile(r"[\u3400-\u9fff]+")
# English function words and the question frame ("why does my ... not ...") that every query
# shares; code keywords that every chunk shares.
STOP = frozenset(
    "a an the of to in on for and or is are be by with as at it this that from what which why "
    "how does do not no if then else when into than its can my i me we our you your there their "
    "was were been being has have had get gets got so but any all some only also just about "
    "where who whom whose would should could will shall may might must very still even here "
    "instead although though after before while because since whether same other".split()
)
_STEMMER = Stemmer.Stemmer("english")


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The Snowball stem of a lower-case word (cached: corpora repeat their words)."""
    return _STEMMER.stemWord(word)


@lru_cache(maxsize=200_000)
def _word_tokens(word: str) -> tuple[str, ...]:
    """One identifier's tokens (cached: code repeats its identifiers, and a search tokenizes
    the lines of every chunk it reranks)."""
    low = word.lower()
    if low in STOP or len(low) < 2:
        return ()
    out = [low]
    pieces = [p for part in _SPLIT.split(word) for p in _CAMEL.findall(part)]
    parts = [p.lower() for p in pieces if len(p) > 1]
    if len(parts) > 1:
        parts = [p for p in parts if p not in STOP]
        out.extend(parts)
    else:
        parts = [low]
    out.extend(sorted(s for s in {stem(p) for p in parts if p.isalpha()} if s not in out))
    return tuple(out)


def tokenize(text: str) -> list[str]:
    """Whole identifiers (also dashed pass names and `a::b` names), their camelCase, snake, `::`,
    dot and dash parts, the stems of those parts, and CJK bigrams."""
    out: list[str] = []
    for m in _IDENT.finditer(text):
        out.extend(_word_tokens(m.group(0)))
    for run in _CJK.findall(text):
        out.extend(run[i : i + 2] for i in range(max(1, len(run) - 1)))
    return out
