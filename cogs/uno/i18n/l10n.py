"""Every word a player or admin reads goes through here, in their language.

Write a player-facing string as `t("{player} drew a card", player=name)` and a
counted one as `tn("{count} card", "{count} cards", count)`; a string kept in a
module constant is marked `N_("...")` (for the catalogue) and read through `t`.
The language is the one set by `speaking(...)` around the rendering: a private
answer speaks the member's Discord language (`interaction.locale`), a public
message the server's (`guild_locale`, `Guild.preferred_locale`).

The catalogues are gettext `.po` files in `cogs/uno/i18n/locales/<code>/LC_MESSAGES/`,
read with Babel and compiled in memory at import: no generated file is kept.
`python -m tools.catalogue` extracts the strings and updates them
(docs/development.md, "Words").
"""

from __future__ import annotations

import contextvars
import gettext
import io
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import discord
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ENGLISH = "en"
CROATIAN = "hr"
LOCALES = Path(__file__).with_name("locales")
DOMAIN = "messages"
_PO = Path("LC_MESSAGES", f"{DOMAIN}.po")
# Discord's locale -> the catalogue that speaks it; any other locale reads English.
_DISCORD: dict[discord.Locale, str] = {discord.Locale.croatian: CROATIAN}

_language: contextvars.ContextVar[str] = contextvars.ContextVar("language", default=ENGLISH)


def _load(code: str) -> gettext.GNUTranslations:
    """The `.po` catalogue of `code`, compiled to a `.mo` in memory."""
    with (LOCALES / code / _PO).open("rb") as source:
        catalog = read_po(source, locale=code)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def languages() -> tuple[str, ...]:
    """Every language with a catalogue, English first."""
    found = sorted(
        p.name for p in LOCALES.iterdir() if (p / "LC_MESSAGES" / f"{DOMAIN}.po").is_file()
    )
    return (ENGLISH, *(code for code in found if code != ENGLISH))


_CATALOGUES: dict[str, gettext.GNUTranslations] = {code: _load(code) for code in languages()}


def language() -> str:
    """The language the current rendering speaks."""
    return _language.get()


def N_(message: str, /) -> str:  # noqa: N802 - gettext's name for "mark, translate later"
    """Mark `message` for the catalogue without translating it (read it through `t`)."""
    return message


def NC_(context: str, message: str, /) -> str:  # noqa: N802 - as N_, with a context
    """Mark `message` for the catalogue under `context` (a command's name, an option's)."""
    return message


def in_context(context: str, message: str, language_code: str) -> str:
    """`message` under `context` in `language_code` (itself when not translated)."""
    return _CATALOGUES[language_code].pgettext(context, message)


def t(message: str, /, **values: object) -> str:
    """`message` in the current language, `{name}` placeholders filled from `values`."""
    text = _CATALOGUES[_language.get()].gettext(message)
    return text.format(**values) if values else text


def tn(singular: str, plural: str, count: int, /, **values: object) -> str:
    """The form of a counted message that fits `count` (also given as `{count}`)."""
    text = _CATALOGUES[_language.get()].ngettext(singular, plural, count)
    return text.format(count=count, **values)


def speaking(language_code: str) -> AbstractContextManager[None]:
    """Render everything inside the block in `language_code`."""
    return _Speaking(language_code if language_code in _CATALOGUES else ENGLISH)


class _Speaking:
    """`speaking`'s block, a plain context manager: every click and every panel drawn
    opens one, and a generator-based one cost a generator, its frame and a wrapper."""

    __slots__ = ("_code", "_token")

    def __init__(self, code: str) -> None:
        self._code = code
        self._token: contextvars.Token[str] | None = None

    def __enter__(self) -> None:
        self._token = _language.set(self._code)

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _language.reset(self._token)


def speak(language_code: str) -> None:
    """Speak `language_code` for the rest of this task (one interaction's handling)."""
    _language.set(language_code if language_code in _CATALOGUES else ENGLISH)


def of_locale(locale: discord.Locale | None) -> str:
    """The catalogue for a Discord locale: Croatian for `hr`, English for any other."""
    return _DISCORD.get(locale, ENGLISH) if locale is not None else ENGLISH


def member_language(interaction: discord.Interaction[Any]) -> str:
    """The language of a private answer: the member's own Discord language."""
    return of_locale(interaction.locale)


def server_language(interaction: discord.Interaction[Any]) -> str:
    """The language of a public message: the server's (English outside a server)."""
    return of_locale(interaction.guild_locale)


def guild_language(guild: discord.Guild | None) -> str:
    """A server's language where no interaction is at hand (a timer, a restart)."""
    return of_locale(guild.preferred_locale) if guild is not None else ENGLISH
