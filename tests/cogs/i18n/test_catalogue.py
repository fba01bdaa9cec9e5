"""The catalogues: every string the code marks is translated, in every language.

Extracts the msgids from the code as `python -m tools.catalogue` does and
fails on a catalogue that misses one, leaves one empty or fuzzy, lacks a plural
form, or whose placeholders differ from the msgid's; plus the rules the
translations themselves must keep (Discord's command names, the plural rule).
"""

from __future__ import annotations

import contextlib
import io
import re
import string

import discord
import pytest
from babel.messages.catalog import Catalog, Message

from cogs.uno.i18n.l10n import CROATIAN, ENGLISH, in_context, languages, of_locale, speaking, t, tn
from cogs.uno.i18n.translator import NAME_CONTEXTS, NAMES
from tools import catalogue

# Discord's rule for a command or option name (lowercase, no spaces, 1-32 characters).
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


@pytest.fixture(scope="module")
def template() -> Catalog:
    warnings = io.StringIO()
    with contextlib.redirect_stderr(warnings):
        extracted = catalogue.extract()
    # Babel skips a marked f-string with a warning: its words would never be translated.
    skipped = [line for line in warnings.getvalue().splitlines() if "f-string" in line]
    assert skipped == []
    return extracted


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _problems(message: Message, translated: Message | None, *, plurals: int) -> list[str]:
    if translated is None:
        return ["missing"]
    if translated.fuzzy:
        return ["fuzzy"]
    if isinstance(message.id, str):  # `not message.pluralizable`, in a form mypy narrows
        text = translated.string
        if not isinstance(text, str) or not text:
            return ["empty"]
        return [] if _fields(text) == _fields(str(message.id)) else [f"placeholders: {text!r}"]
    forms = translated.string
    if not isinstance(forms, tuple | list) or len(forms) != plurals or not all(forms):
        return [f"plural forms: {forms!r}"]
    singular, plural = message.id
    problems = []
    for i, form in enumerate(forms):
        # English's first form says the singular; every other form may say any count.
        expected = _fields(singular if plurals == 2 and i == 0 else plural)
        if _fields(form) != expected:
            problems.append(f"placeholders of form {i}: {form!r}")
    return problems


@pytest.mark.parametrize("code", languages())
def test_every_marked_string_is_translated(template: Catalog, code: str) -> None:
    translated = catalogue.read(code)
    plurals = translated.num_plurals
    failures = [
        f"{message.id!r}: {problem}"
        for message in template
        if message.id
        for problem in _problems(
            message, translated.get(message.id, message.context), plurals=plurals
        )
    ]
    assert failures == []


def test_the_catalogues_hold_nothing_the_code_no_longer_says(template: Catalog) -> None:
    wanted = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in template if m.id}
    for code in languages():
        kept = {
            (m.id if isinstance(m.id, str) else m.id[0], m.context)
            for m in catalogue.read(code)
            if m.id
        }
        assert kept - wanted == set(), code


def test_the_marked_strings_are_many() -> None:
    """The extraction really reads the code: the panels, the table, the engine's refusals."""
    ids = {m.id for m in catalogue.extract() if m.id}
    assert "Draw a card" in ids
    assert "{A_card} doesn't match {top}." in ids  # engine/legal.py
    assert ("{count} card", "{count} cards") in ids
    assert len(ids) > 300


def test_croatian_plural_forms_follow_the_count() -> None:
    forms = {n: None for n in (1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111)}
    with speaking(CROATIAN):
        said = {n: tn("{count} card", "{count} cards", n) for n in forms}
    assert said[1] == "1 karta"
    assert said[21] == "21 karta"
    assert said[101] == "101 karta"
    assert said[2] == "2 karte"
    assert said[4] == "4 karte"
    assert said[22] == "22 karte"
    for n in (5, 11, 12, 14, 25, 111):
        assert said[n] == f"{n} karata"


def test_english_plurals_come_from_the_catalogue() -> None:
    english = catalogue.read(ENGLISH)
    message = english.get(("{count} card", "{count} cards"))
    assert message is not None
    assert isinstance(message.string, tuple | list)
    assert tuple(message.string) == ("{count} card", "{count} cards")
    with speaking(ENGLISH):
        assert tn("{count} card", "{count} cards", 1) == "1 card"
        assert tn("{count} card", "{count} cards", 0) == "0 cards"


def test_the_language_follows_discord_locales() -> None:
    assert of_locale(discord.Locale.croatian) == CROATIAN
    assert of_locale(discord.Locale.american_english) == ENGLISH
    assert of_locale(discord.Locale.german) == ENGLISH  # no catalogue: English
    assert of_locale(None) == ENGLISH
    with speaking("xx"):  # a language without a catalogue speaks English
        assert t("Draw a card") == "Draw a card"
    with speaking(CROATIAN):
        assert t("Draw a card") == "Vuci kartu"


@pytest.mark.parametrize("code", [c for c in languages() if c != ENGLISH])
def test_command_names_obey_discord_rules(code: str) -> None:
    contexts = set(NAME_CONTEXTS.values()) - {"choice"}
    names = [
        in_context(context, name, code)
        for context in contexts
        for name in NAMES
        if catalogue.read(code).get(name, context) is not None
    ]
    assert names
    for name in names:
        assert COMMAND_NAME.match(name), name
        assert name == name.lower(), name
    with speaking(code):
        assert in_context("command name", "classic", code) != "classic"
