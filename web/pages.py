"""What every page blueprint shares: the house, the job queue, and turning errors into pages."""

from __future__ import annotations

from flask import abort, current_app

from kb.errors import KBError
from web.house import House, NotFound
from web.jobs import JobQueue


def house() -> House:
    return current_app.extensions["passwise.house"]


def jobs() -> JobQueue:
    return current_app.extensions["passwise.jobs"]


def or_abort(fn, *args, **kwargs):
    """Call into the house; a user-fixable error becomes a 4xx page with its sentence."""
    try:
        return fn(*args, **kwargs)
    except NotFound as exc:
        abort(404, str(exc))
    except KBError as exc:
        abort(400, str(exc))


def int_arg(value: str | None, default: int, name: str) -> int:
    if value in (None, ""):
        return default
    try:
        return int(value)
    except ValueError:
        abort(400, f"{name} must be a whole number.")
