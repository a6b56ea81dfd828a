"""The one exception IR capture raises for problems a user can fix."""


class IRCaptureError(Exception):
    """A capture could not run; the message names the cause and the fix in one sentence."""
