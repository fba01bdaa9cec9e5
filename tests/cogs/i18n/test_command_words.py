"""The /uno commands in every language fit Discord's rules: names lowercase without
spaces (1-32 characters), descriptions of 1-100 characters, choices of 1-100."""

from __future__ import annotations

import re
from collections.abc import Iterator

import discord
import pytest
from discord import app_commands

from cogs.uno.cog import UnoCog
from cogs.uno.i18n.l10n import ENGLISH, languages
from cogs.uno.i18n.translator import CommandTranslator

NAME = re.compile(r"^[-_\w]{1,32}$")
Where = app_commands.TranslationContextLocation
LOCALES = {"hr": discord.Locale.croatian, ENGLISH: discord.Locale.american_english}


def _strings() -> Iterator[tuple[app_commands.locale_str, Where]]:
    group = UnoCog.uno
    yield app_commands.locale_str(group.name), Where.group_name
    yield app_commands.locale_str(group.description), Where.group_description
    for command in group.walk_commands():
        assert isinstance(command, app_commands.Command)
        yield app_commands.locale_str(command.name), Where.command_name
        yield app_commands.locale_str(command.description), Where.command_description
        for parameter in command.parameters:
            yield app_commands.locale_str(parameter.name), Where.parameter_name
            yield app_commands.locale_str(parameter.description), Where.parameter_description
            for choice in parameter.choices:
                yield app_commands.locale_str(choice.name), Where.choice_name


def located(where: Where) -> app_commands.TranslationContextTypes:
    """A context that names only its location, which is all the translator reads."""
    context: app_commands.TranslationContextTypes
    # discord.py's overloads pair each literal location with the object it belongs to.
    context = app_commands.TranslationContext(location=where, data=None)  # type: ignore[call-overload]
    return context


@pytest.mark.parametrize("code", languages())
async def test_every_command_word_fits_discord(code: str) -> None:
    translator = CommandTranslator()
    checked = 0
    for string, where in _strings():
        context = located(where)
        words = await translator.translate(string, LOCALES[code], context) or string.message
        checked += 1
        if where in (Where.command_name, Where.group_name, Where.parameter_name):
            assert NAME.match(words), words
            assert words == words.lower(), words
        else:
            assert 1 <= len(words) <= 100, words
    assert checked > 40


async def test_croatian_commands_are_translated() -> None:
    translator = CommandTranslator()
    translated = 0
    for string, where in _strings():
        context = located(where)
        if await translator.translate(string, discord.Locale.croatian, context) is not None:
            translated += 1
    # Only names Croatian keeps as they are (uno, duo, pizza) come back untranslated.
    assert translated > 40
