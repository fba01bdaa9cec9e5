"""Every word a player or admin reads goes through here, in their language.

Write a player-facing string as `t("{player} drew a card", player=name)` and a
counted one as `tn("{count} card", "{count} cards", count)`. The language is the
one set by `speaking(...)` around the rendering: a private answer speaks the
member's Discord language, a public message the server's.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager

ENGLISH = "en"

_language: contextvars.ContextVar[str] = contextvars.ContextVar("language", default=ENGLISH)


def language() -> str:
    """The language the current rendering speaks."""
    return _language.get()


def t(message: str, /, **values: object) -> str:
    """`message` in the current language, `{name}` placeholders filled from `values`."""
    return message.format(**values) if values else message


def tn(singular: str, plural: str, count: int, /, **values: object) -> str:
    """The form of a counted message that fits `count` (also given as `{count}`)."""
    text = singular if count == 1 else plural
    return text.format(count=count, **values)


@contextmanager
def speaking(language_code: str) -> Iterator[None]:
    """Render everything inside the block in `language_code`."""
    token = _language.set(language_code)
    try:
        yield
    finally:
        _language.reset(token)
