"""Which bot-token requests go first when the request budget is short.

The priority travels with the caller's context (a contextvar): a caller says what it
is sending (`with priority(Priority.MOMENT): ...`), and every bot-token request made
inside takes its place in the budget's queue by it. A call that says nothing is a
post: discord.py's own calls at start-up, commands' replies, lobbies, summaries.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from enum import IntEnum


class Priority(IntEnum):
    """Lower goes first."""

    POST = 0  # summaries, lobbies, pings, and every call not otherwise tagged
    MOMENT = 1  # a public moment on a table: a round's start or end, UNO caught, a verdict
    EDIT = 2  # ordinary table edits, old messages retired, pings deleted


_current: ContextVar[Priority] = ContextVar("uno_request_priority", default=Priority.POST)


def current() -> Priority:
    return _current.get()


@contextlib.contextmanager
def priority(level: Priority) -> Iterator[None]:
    """Bot-token requests made inside take their budget slot at `level`."""
    token = _current.set(level)
    try:
        yield
    finally:
        _current.reset(token)
