"""`/uno forget`: erase a member's record in a server."""

from __future__ import annotations

from typing import Any

import discord

from cogs.uno.i18n.l10n import t, tn
from cogs.uno.refusal import UserFacingError
from cogs.uno.transport import answers
from db.database import Database
from db.errors import MemberPlaying


async def forget(
    db: Database,
    interaction: discord.Interaction[Any],
    member: discord.User | None,
    user_id: str | None,
) -> None:
    """Erase the record of the member meant; another's needs Manage Server."""
    assert interaction.guild_id is not None
    who = _whose(interaction, member, user_id)
    if who != interaction.user.id and not interaction.permissions.manage_guild:
        raise UserFacingError(
            t("Only a member with Manage Server can erase another member's record.")
        )
    try:
        touched = await db.scores.forget_member(who, guild_id=interaction.guild_id)
    except MemberPlaying:
        raise UserFacingError(
            t("That member is playing here right now: erase the record once the game is over.")
        ) from None
    await answers.reply(interaction, _forgotten(interaction.user.id, who, touched))


def _whose(
    interaction: discord.Interaction[Any], member: discord.User | None, user_id: str | None
) -> int:
    """The member `/uno forget` means: the one named, the id given, or the caller."""
    if member is not None:
        return member.id
    if user_id is None:
        return interaction.user.id
    text = user_id.strip().removeprefix("<@").removesuffix(">")
    if not (text.isascii() and text.isdigit() and 15 <= len(text) <= 20):
        raise UserFacingError(
            t("That isn't a member id: copy it from their profile (Copy User ID).")
        )
    return int(text)


def _forgotten(caller: int, who: int, touched: int) -> str:
    """What `/uno forget` says it erased."""
    if who == caller:
        return tn(
            "Your record in this server is erased: {count} past game now shows a deleted "
            "member, and the boards leave them out.",
            "Your record in this server is erased: {count} past games now show a deleted "
            "member, and the boards leave them out.",
            touched,
        )
    return tn(
        "<@{member}>'s record in this server is erased: {count} past game now shows a "
        "deleted member, and the boards leave them out.",
        "<@{member}>'s record in this server is erased: {count} past games now show a "
        "deleted member, and the boards leave them out.",
        touched,
        member=who,
    )
