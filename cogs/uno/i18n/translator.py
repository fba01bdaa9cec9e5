"""The /uno commands in the member's Discord language: names, descriptions, choices.

Discord shows each member the command in their own client's language from the
localisations sent at sync; discord.py asks this translator for every string
and locale. Names come from the catalogue under a context (a command's name is
not a sentence); Discord wants them lowercase, without spaces, at most 32
characters (tests/cogs/i18n/test_catalogue.py checks every one).
"""

from __future__ import annotations

from typing import Final

import discord
from discord import app_commands

from cogs.uno.i18n.l10n import ENGLISH, NC_, in_context, of_locale, speaking, t

_TranslationLocation = app_commands.TranslationContextLocation
NAME_CONTEXTS: Final = {
    _TranslationLocation.command_name: "command name",
    _TranslationLocation.group_name: "command name",
    _TranslationLocation.parameter_name: "option name",
    _TranslationLocation.choice_name: "choice",
}
# Every name the commands use, for the catalogue (cog.py holds them in decorators).
NAMES: Final = (
    NC_("command name", "uno"),
    NC_("command name", "duo"),
    NC_("command name", "pizza"),
    NC_("command name", "classic"),
    NC_("command name", "hand"),
    NC_("command name", "leave"),
    NC_("command name", "end"),
    NC_("command name", "leaderboard"),
    NC_("command name", "stats"),
    NC_("command name", "forget"),
    NC_("command name", "settings"),
    NC_("command name", "pings"),
    NC_("command name", "rules"),
    NC_("command name", "history"),
    NC_("command name", "replay"),
    NC_("option name", "opponent"),
    NC_("option name", "target"),
    NC_("option name", "strength"),
    NC_("option name", "variant"),
    NC_("option name", "ranking"),
    NC_("option name", "member"),
    NC_("option name", "user_id"),
    NC_("option name", "state"),
    NC_("option name", "match"),
    NC_("choice", "duo"),
    NC_("choice", "pizza"),
    NC_("choice", "classic"),
    NC_("choice", "easy"),
    NC_("choice", "normal"),
    NC_("choice", "hard"),
    NC_("choice", "skill"),
    NC_("choice", "wins"),
    NC_("choice", "off"),
    NC_("choice", "on"),
)


class CommandTranslator(app_commands.Translator):
    """Command names, descriptions, option names and choices from the catalogue."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        code = of_locale(locale)
        if code == ENGLISH:
            return None  # the strings as written are English
        message = string.message
        name_context = NAME_CONTEXTS.get(context.location)
        if name_context is not None:
            words = in_context(name_context, message, code)
        else:
            with speaking(code):
                words = t(message)
        return None if words == message else words
