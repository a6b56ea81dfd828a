"""Parts of tier 4 (compiler-source escalation); the entry point is diagnose/escalate.py.

symptoms.toml/symptoms.py: the symptom table; question.py: symptom -> pass -> question and
search plan; ranking.py: deciding-branch scoring; rewrite.py: condition -> rewrite family and
the evidence chain; freshness.py: index vs kernel compiler version; llm.py: optional summary
with checked citations.
"""
