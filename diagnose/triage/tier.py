"""Tier 1 of the ladder, pattern triage: parse the kernel source (never run it), run the
static detectors its pattern cards name, and turn their matches into findings."""

from __future__ import annotations

import ast
import copy
import functools
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from diagnose.evidence import Finding, TierResult
from diagnose.triage.detectors import Match, all_detectors
from diagnose.triage.detectors.memory import depends_on, memory_ops, pointer_of
from diagnose.triage.detectors.model import KernelModule, build_model, call_name
from diagnose.triage.priors import FamilyPrior, apply_priors
from diagnose.weigh import is_fallback

CARDS_DIR = Path(__file__).resolve().parents[2] / "corpora" / "patterns"
BACKENDS = ("cuda", "ascend")
MAX_SOURCE_CHARS = 1_000_000  # a kernel file is a few KB; anything this big is not a kernel
SUFFICIENT_CONFIDENCE = 0.8
COMPETING_CONFIDENCE = 0.5
TIER, TIER_NAME = 1, "pattern triage"


class TriageError(ValueError):
    """A kernel source or card that triage cannot read; the message says why and what to do."""


@dataclass
class DocRef:
    repo: str
    path: str
    note: str


@dataclass
class PatternCard:
    """A known slow idiom: how it shows, how it is confirmed, and which rewrite removes it."""

    id: str
    backend: str
    title: str
    symptom: str
    detector: str
    rewrite_family: str
    confirming_evidence: list[str]
    expected_effect: str
    passes: list[str]
    docs: list[DocRef]
    rewrite: str
    before: str
    after: str
    source: Path | None = field(default=None, compare=False)

    def applies_to(self, backend: str) -> bool:
        return self.backend in (backend, "common")


_REQUIRED = ("id", "backend", "title", "symptom", "detector", "rewrite_family",
             "confirming_evidence", "expected_effect", "passes", "docs", "rewrite",
             "before", "after")


@functools.lru_cache(maxsize=512)
def _toml(text: str) -> dict:
    """A card's parsed text, kept by content: every triage reads every card, and parsing them
    all costs more than the detectors on a small kernel."""
    return tomllib.loads(text)


def _card_from(path: Path) -> PatternCard:
    try:
        data = _toml(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise TriageError(f"Pattern card {path} is not valid TOML ({exc}); fix the file.") from None
    missing = [key for key in _REQUIRED if key not in data]
    if missing:
        raise TriageError(f"Pattern card {path} lacks {', '.join(missing)}; add the fields.")
    docs = [DocRef(d["repo"], d["path"], d.get("note", "")) for d in data["docs"]]
    fields = {key: copy.copy(data[key]) for key in _REQUIRED if key != "docs"}  # the cache's own
    return PatternCard(**fields, docs=docs, source=path)


def load_cards(backend: str | None = None, cards_dir: Path | None = None) -> list[PatternCard]:
    """All pattern cards, or those that apply to `backend` (its own plus the common ones)."""
    directory = cards_dir or CARDS_DIR
    if not directory.is_dir():
        raise TriageError(f"Pattern card folder {directory} does not exist; "
                          "run from a passwise checkout or pass cards_dir.")
    cards = [_card_from(p) for p in sorted(directory.glob("*.toml"))]
    return [c for c in cards if backend is None or c.applies_to(backend)]


def _parse(source: str, path: str) -> ast.Module:
    if len(source) > MAX_SOURCE_CHARS:
        raise TriageError(f"{path} has {len(source)} characters, more than the "
                          f"{MAX_SOURCE_CHARS} a kernel file may have; pass the kernel file only.")
    try:
        return ast.parse(source, filename=path)
    except SyntaxError as exc:
        if exc.lineno is None:  # e.g. null bytes: no line to point at
            raise TriageError(f"{path} cannot be parsed as Python ({exc.msg}); "
                              "pass a plain-text Triton source file.") from None
        raise TriageError(f"{path} is not valid Python (line {exc.lineno}: {exc.msg}); "
                          "fix the syntax before diagnosing it.") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise TriageError(f"{path} cannot be parsed as Python ({type(exc).__name__}); "
                          "pass a plain-text Triton source file.") from None


def _reaches(module: KernelModule, match: Match) -> list[int]:
    """Lines of the memory accesses whose address uses a name the matched statement assigns, and
    the lines a value idiom's math runs at (`value_lines`): an IR symptom at those lines can be
    this idiom's doing (`row = offs // n` -> the load; `xd = x.to(tl.float64)` -> `tl.exp(xd)`)."""
    kernel = module.kernels.get(match.function)
    if kernel is None:
        return []
    last = match.end_line or match.line
    assigned = {name for name, stmts in kernel.assigns.items()
                if any(match.line <= getattr(s, "lineno", 0) <= last for s in stmts)}
    computed = match.facts.get("value_lines") or []  # where a value idiom's math runs
    return sorted({op.lineno for op in memory_ops(kernel)
                   if assigned & depends_on(kernel, pointer_of(op))}  # type: ignore[arg-type]
                  | {line for line in computed if isinstance(line, int)})


def _finding(card: PatternCard, match: Match, path: str, module: KernelModule) -> Finding:
    return Finding(
        tier=TIER, kind="pattern", card_id=card.id, rewrite_family=card.rewrite_family,
        message=match.message, confidence=match.confidence,
        location={"path": path, "function": match.function, "line": match.line,
                  "end_line": match.end_line or match.line,
                  "reaches": _reaches(module, match), "callers": _callers(module, match.function)},
        evidence={"detector": match.detector, "snippet": match.snippet, "title": card.title,
                  "facts": match.facts, "confirming_evidence": card.confirming_evidence},
        evidence_needed=list(match.evidence_needed), passes=list(card.passes))


def _callers(module: KernelModule, function: str) -> list[str]:
    """The launched kernels that call `function` (a @triton.jit helper), directly or through other
    helpers: the compiler inlines it, so the IR shows its code under their names."""
    launched = {launch.kernel for launch in module.launches}
    if not function or function in launched:
        return []
    calls = {name: {call_name(n) for n in ast.walk(k.node) if isinstance(n, ast.Call)}
             for name, k in module.kernels.items()}
    reached, frontier = set(), {function}
    while frontier:
        frontier = {name for name, called in calls.items() if called & frontier} - reached
        reached |= frontier
    return sorted(reached & launched)


def _sufficiency(findings: list[Finding]) -> tuple[bool, str]:
    """Tier 1 is enough only when one confident rewrite family stands alone on static facts."""
    if not findings:
        return False, "No known slow idiom matched; profiling has to locate the time."
    top = findings[0]
    rivals = sorted({f.rewrite_family for f in findings
                     if f.confidence >= COMPETING_CONFIDENCE
                     and f.rewrite_family != top.rewrite_family})
    if top.confidence < SUFFICIENT_CONFIDENCE:
        return False, (f"Best hypothesis {top.card_id} ({top.rewrite_family}) has confidence "
                       f"{top.confidence:.2f} < {SUFFICIENT_CONFIDENCE}; it needs: "
                       f"{'; '.join(top.evidence_needed) or 'profiling'}.")
    if rivals:
        return False, (f"{top.rewrite_family} leads but competes with {', '.join(rivals)}; "
                       "profiling must say which hotspot matters.")
    if top.evidence_needed:
        return False, (f"{top.card_id} is likely but rests on facts tier 1 cannot see: "
                       f"{'; '.join(top.evidence_needed)}.")
    return True, f"{top.card_id} is certain from the source alone and no other family competes."


def triage(source: str, path: str = "<kernel>", backend: str = "cuda",
           cards_dir: Path | None = None,
           resolved: dict[str, dict[str, int]] | None = None,
           priors: dict[str, FamilyPrior] | None = None) -> TierResult:
    """Run tier 1 over one kernel file's source text for `backend` ("cuda" or "ascend").

    `resolved` holds, per kernel, launch values a capture recorded (constexprs, num_warps,
    num_stages): the detectors use them where the host code computes a value from sizes.
    `priors` (load_priors(home)) shift confidences by the families' optimize win record."""
    started = time.perf_counter()
    if backend not in BACKENDS:
        raise TriageError(f"Unknown backend {backend!r}; use one of {', '.join(BACKENDS)}.")
    module = build_model(source, path, _parse(source, path))
    module.resolved = dict(resolved or {})
    if not module.kernels:
        return TierResult(TIER, TIER_NAME, skipped=True,
                          skip_reason=f"{path} defines no @triton.jit function.",
                          elapsed_s=time.perf_counter() - started)
    cards = load_cards(backend, cards_dir)
    detectors = all_detectors()
    findings: list[Finding] = []
    failures: list[str] = []
    broken: list[str] = []  # detectors that raised on this kernel's code: skipped and named
    for detector_id in sorted({c.detector for c in cards if c.detector}):
        det = detectors.get(detector_id)
        if det is None or backend not in det.backends:
            continue
        card = next(c for c in cards if c.detector == detector_id)
        try:
            matches = det.run(module, backend)
        except RecursionError:
            failures.append(detector_id)  # pathological nesting: skip, report, keep going
            continue
        except Exception as exc:  # noqa: BLE001 - one reading's blind spot must not end the diagnosis
            broken.append(f"{detector_id} ({type(exc).__name__})")
            continue
        findings += [_finding(card, m, path, module) for m in matches]
    moved = apply_priors(findings, priors or {}, SUFFICIENT_CONFIDENCE)
    # equal confidence: evidence about this kernel before the fallback guess, then source order
    findings.sort(key=lambda f: (-f.confidence, is_fallback(f), f.location["line"] if f.location else 0))
    sufficient, reason = _sufficiency(findings)
    if moved:
        reason += f" Learned priors from optimize runs shifted {moved} hypothesis confidence(s)."
    if failures:
        reason += f" Detectors skipped on deeply nested code: {', '.join(failures)}."
    if broken:
        reason += f" Detectors that could not read this kernel's code were skipped: {', '.join(broken)}."
    return TierResult(TIER, TIER_NAME, findings, sufficient, reason,
                      elapsed_s=round(time.perf_counter() - started, 4))


def triage_file(path: str | Path, backend: str = "cuda") -> TierResult:
    """`triage` over a file on disk, with a clear error when it cannot be read."""
    file = Path(path)
    try:
        source = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TriageError(f"Cannot read kernel file {file} ({exc.__class__.__name__}); "
                          "check the path and that it is UTF-8 text.") from None
    return triage(source, str(file), backend)
