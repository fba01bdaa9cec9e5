"""A lobby: who sits down before a match starts. Kept in memory; its id comes
from the database (never reused), so a restart can retire its message."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import discord

from cogs.uno import ids
from cogs.uno.render import ButtonSpec, escape_name, plural, variant_name
from cogs.uno.table_options import TableOptions
from engine.match import Variant

LOBBY_LIFE = timedelta(minutes=10)
SEATS = {"duo": (2, 2), "pizza": (2, 5), "classic": (2, 10)}
NEUTRAL = 0x2B2D31


@dataclass(slots=True)
class Lobby:
    """A table waiting for its players; one per channel.

    `version` grows with every change of its seats: a button counts only for the
    version it was drawn for, on the message it was drawn on.
    """

    lobby_id: int
    channel_id: int
    guild_id: int
    host_id: int
    variant: Variant
    play: TableOptions  # the server's settings when the lobby opened
    seats: list[tuple[int, str]]
    invited_id: int | None = None
    invited_name: str | None = None  # set when the invited member turned pings off
    in_thread: bool = False  # opened in a thread: the table stays there
    message_id: int | None = None
    expires_at: datetime = field(default_factory=lambda: datetime.now(UTC) + LOBBY_LIFE)
    starting: bool = False
    version: int = 0

    @property
    def target(self) -> int:
        return self.play.target

    @property
    def full(self) -> bool:
        return len(self.seats) >= SEATS[self.variant][1]

    @property
    def can_start(self) -> bool:
        return len(self.seats) >= SEATS[self.variant][0]

    def seated(self, user_id: int) -> bool:
        return any(uid == user_id for uid, _ in self.seats)

    def embed(self, *, note: str | None = None) -> discord.Embed:
        title = variant_name(self.variant)
        low, high = SEATS[self.variant]
        host = escape_name(self.seats[0][1]) if self.seats else "?"
        if self.variant == "duo" and self.invited_id is not None:
            invited = (
                f"**{escape_name(self.invited_name)}**"
                if self.invited_name is not None
                else f"<@{self.invited_id}>"
            )
            description = f"**{host}** challenges {invited} to a match of {title}."
        elif self.variant == "duo":
            description = f"**{host}** wants to play {title}. The first to press **Join** plays."
        else:
            description = (
                f"**{host}** opened a {title} table for {low} to {high} players. "
                "Press **Join** to sit down; the host starts."
            )
        embed = discord.Embed(title=f"{title} — lobby", description=description, colour=NEUTRAL)
        embed.add_field(
            name=f"Seated ({len(self.seats)}/{high})",
            value="\n".join(f"• {escape_name(name)}" for _, name in self.seats) or "nobody yet",
            inline=True,
        )
        embed.add_field(name="Target", value=plural(self.target, "point"), inline=True)
        embed.add_field(name="Options", value=self.play.words()[:1024], inline=True)
        embed.add_field(
            name="Expires",
            value=f"<t:{int(self.expires_at.timestamp())}:R> if it hasn't started",
            inline=True,
        )
        if note:
            embed.add_field(name="\u200b", value=note[:1024], inline=False)
        return embed

    def components(self) -> list[ButtonSpec]:
        def button(label: str, code: str, style: discord.ButtonStyle) -> ButtonSpec:
            custom_id = ids.lobby_custom_id(self.lobby_id, self.version, code)
            return ButtonSpec(
                label=label, custom_id=custom_id, style=style, emoji=None, disabled=False, row=0
            )

        if self.variant == "duo" and self.invited_id is not None:
            return [
                button("Accept", "accept", discord.ButtonStyle.success),
                button("Decline", "decline", discord.ButtonStyle.secondary),
            ]
        if self.variant == "duo":
            return [
                button("Join", "join", discord.ButtonStyle.success),
                button("Cancel", "cancel", discord.ButtonStyle.secondary),
            ]
        return [
            button("Join", "join", discord.ButtonStyle.success),
            button("Leave", "leave", discord.ButtonStyle.secondary),
            button("Start", "start", discord.ButtonStyle.primary),
            button("Cancel", "cancel", discord.ButtonStyle.danger),
        ]

    def closed_embed(self, reason: str) -> discord.Embed:
        return discord.Embed(
            title=f"{variant_name(self.variant)} — lobby closed",
            description=reason,
            colour=NEUTRAL,
        )
