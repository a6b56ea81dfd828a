"""Tier 1 of the ladder, pattern triage: the entry (`tier.py`: cards, findings, sufficiency) and
the static detectors it runs over the kernel AST (`detectors/`)."""

from .tier import (
    BACKENDS,
    CARDS_DIR,
    DocRef,
    PatternCard,
    TriageError,
    load_cards,
    triage,
    triage_file,
)

__all__ = ["BACKENDS", "CARDS_DIR", "DocRef", "PatternCard", "TriageError", "load_cards", "triage",
           "triage_file"]
