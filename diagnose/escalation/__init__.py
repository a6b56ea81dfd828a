"""Tier 4 of the ladder, compiler-source escalation. `tier.py` is the ladder's entry (each IR
symptom escalated, the answers merged into one TierResult); `escalate.py` is the escalation of one
symptom (the API `passwise escalate` calls).

symptoms.toml/symptoms.py: the symptom table; question.py: symptom -> pass -> question and
search plan; ranking.py: deciding-branch scoring; rewrite.py: condition -> rewrite family and
the evidence chain; freshness.py: index vs kernel compiler version; llm.py: optional summary
with checked citations.
"""
