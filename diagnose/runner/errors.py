"""The one exception the runner raises for mistakes a user can fix (bad path, bad task, no GPU)."""


class RunnerError(Exception):
    """A user-fixable problem; its message is one sentence naming the cause and the fix."""
