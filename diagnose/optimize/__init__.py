"""The optimize loop: rounds of diagnose -> propose -> verify -> time -> accept, kept as run records
(docs/runs.md)."""
