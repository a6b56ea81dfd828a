"""Fixture compiler sources for tests/test_escalate.py and the helper that indexes them."""
