"""Errors a user can cause in the knowledge base; each message is one sentence with the fix."""


class KBError(Exception):
    """A user-facing knowledge-base error: str(e) is one clear sentence."""
