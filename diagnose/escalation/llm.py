"""Optional: an OpenAI-compatible model summarises the retrieved passages. Every citation in its
reply (path:start-end) is checked against the index and the retrieved passages; any that is not
there is removed from the text and reported. A failing endpoint never fails the escalation."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from kb.search import KnowledgeBase

from .ranking import Passage

# path:12-30 or path:12 ; a path has a dot-extension and no spaces
CITATION = re.compile(r"(?P<path>[A-Za-z0-9_./+-]+\.[A-Za-z0-9]+):(?P<start>\d+)(?:-(?P<end>\d+))?")
MAX_PASSAGE_CHARS = 2400
SYSTEM_PROMPT = (
    "You explain compiler behaviour to a kernel engineer. Answer ONLY from the numbered source "
    "passages you are given. Cite every claim as path:start-end using the exact path and a line "
    "range inside the passage you rely on. Never cite anything that is not in the passages. "
    "Three to six sentences: which condition decided the outcome, what fact of the kernel it "
    "reads, and what source change would satisfy it.")


@dataclass
class LLMConfig:
    """Where the OpenAI-compatible endpoint is; `timeout_s` bounds one request."""

    base_url: str
    model: str
    api_key: str = "none"
    timeout_s: float = 60.0
    max_tokens: int = 600

    @classmethod
    def from_settings(cls, settings: object) -> LLMConfig | None:
        """From anything with llm_base_url / llm_model / llm_api_key (passwise Settings);
        None when the base URL or model is missing."""
        url, model = getattr(settings, "llm_base_url", None), getattr(settings, "llm_model", None)
        if not url or not model:
            return None
        return cls(url, model, getattr(settings, "llm_api_key", None) or "none")


@dataclass
class Citation:
    path: str
    start_line: int
    end_line: int
    reason: str = ""  # why it was dropped; '' when kept

    @property
    def text(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"


@dataclass
class LLMSummary:
    """The model's explanation with verified citations, or why there is none."""

    text: str = ""
    model: str = ""
    citations: list[Citation] = field(default_factory=list)
    dropped: list[Citation] = field(default_factory=list)
    error: str = ""

    def to_json(self) -> dict:
        return asdict(self)


def parse_citations(text: str) -> list[tuple[str, Citation]]:
    """(as written, parsed) for every path:start[-end] in a reply."""
    out = []
    for m in CITATION.finditer(text):
        start = int(m["start"])
        end = int(m["end"]) if m["end"] else start
        out.append((m.group(0), Citation(m["path"], min(start, end), max(start, end))))
    return out


def _overlaps(c: Citation, ranges: list[tuple[int, int]]) -> bool:
    return any(c.start_line <= hi and lo <= c.end_line for lo, hi in ranges)


def _stored_ranges(kb: KnowledgeBase, path: str) -> list[tuple[int, int]]:
    ids = kb.store.ids_where({"path": path})
    return [(ch.start_line, ch.end_line) for _, ch in kb.store.get(ids)]


def check_citation(kb: KnowledgeBase, c: Citation, passages: list[Passage]) -> str:
    """'' when the citation is in the index and within a retrieved passage, else why not."""
    if not _overlaps(c, _stored_ranges(kb, c.path)):
        return "no indexed chunk of this path covers these lines"
    if not _overlaps(c, [(p.start_line, p.end_line) for p in passages if p.path == c.path]):
        return "in the index but not among the retrieved passages"
    return ""


def verify(kb: KnowledgeBase, reply: str, passages: list[Passage]) -> tuple[str, list[Citation],
                                                                             list[Citation]]:
    """The reply with unverifiable citations struck, the kept citations and the dropped ones."""
    kept: list[Citation] = []
    dropped: list[Citation] = []
    for written, c in parse_citations(reply):
        c.reason = check_citation(kb, c, passages)
        if c.reason:
            dropped.append(c)
            reply = reply.replace(written, "[unverified citation removed]")
        elif c not in kept:
            kept.append(c)
    return reply, kept, dropped


def _prompt(question: str, passages: list[Passage]) -> str:
    parts = [f"Question: {question}", ""]
    for n, p in enumerate(passages, 1):
        body = "\n".join(f"{p.start_line + i:5d}  {line}"
                         for i, line in enumerate(p.text.split("\n")[1:]))
        parts.append(f"[{n}] {p.cite} ({p.symbol or p.kind})\n{body[:MAX_PASSAGE_CHARS]}\n")
    return "\n".join(parts)


def _ask(config: LLMConfig, question: str, passages: list[Passage]) -> str:
    from openai import OpenAI

    client = OpenAI(base_url=config.base_url, api_key=config.api_key,
                    timeout=config.timeout_s, max_retries=0)
    reply = client.chat.completions.create(
        model=config.model, max_tokens=config.max_tokens, temperature=0,
        messages=[{"role": "system", "content": SYSTEM_PROMPT},
                  {"role": "user", "content": _prompt(question, passages)}])
    return reply.choices[0].message.content or ""


def _failure(config: LLMConfig, e: Exception) -> str:
    name = type(e).__name__
    what = ("did not answer within " f"{config.timeout_s:g} s" if "Timeout" in name
            else f"failed ({name}: {str(e)[:160]})")
    return (f"The LLM endpoint {config.base_url} {what}; the escalation stands on the retrieved "
            "passages alone.")


def summarise(kb: KnowledgeBase, config: LLMConfig, question: str,
              passages: list[Passage]) -> LLMSummary:
    """Ask the model; check its citations; on any failure return the reason, not an exception."""
    try:
        reply = _ask(config, question, passages)
    except Exception as e:  # any endpoint failure: the tier still answers without a summary
        return LLMSummary(model=config.model, error=_failure(config, e))
    if not reply.strip():
        return LLMSummary(model=config.model, error=f"The LLM endpoint {config.base_url} "
                          "returned an empty reply; the escalation stands on the passages alone.")
    text, kept, dropped = verify(kb, reply, passages)
    return LLMSummary(text, config.model, kept, dropped)
