"""What a failed /uno command says: one handler for every command's errors."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from cogs.uno.i18n.l10n import N_, t
from cogs.uno.refusal import UserFacingError
from cogs.uno.render.refusals import refusal_words
from cogs.uno.transport import answers
from engine.errors import IllegalAction

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062  # Discord's code once the 3 s to answer have passed
SOMETHING_WRONG = N_("Something went wrong on my side; nothing was changed.")


class TooLate(app_commands.CheckFailure):
    """The command waited past Discord's 3 s: nobody is left to answer."""


async def answer_command_error(
    interaction: discord.Interaction[Any], error: app_commands.AppCommandError
) -> None:
    """Refusals in plain words; a late command dropped; anything else logged."""
    original = getattr(error, "original", error)
    if isinstance(error, TooLate):
        log.info("Dropped a command: %s", error)
    elif isinstance(original, IllegalAction):
        await answers.reply(interaction, refusal_words(original))
    elif isinstance(original, UserFacingError):
        await answers.reply(interaction, str(original))
    elif isinstance(error, app_commands.NoPrivateMessage):
        await answers.reply(
            interaction, t("UNO tables live in server channels: use this in a server.")
        )
    elif isinstance(original, discord.NotFound) and original.code == UNKNOWN_INTERACTION:
        # Answered after Discord's 3 s (an overloaded machine): like a late click, not
        # a bug, and nobody is left to tell.
        log.warning("Command by %s answered too late", interaction.user.id)
    else:
        log.error(
            "Command %s failed in channel %s",
            interaction.command.qualified_name if interaction.command else "?",
            interaction.channel_id,
            exc_info=original,
        )
        await answers.reply(interaction, t(SOMETHING_WRONG))
