"""A lobby: who sits down before a match starts. Kept in memory; its id comes
from the database (never reused), so a restart can retire its message."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import discord

from cogs.uno import ids
from cogs.uno.i18n.l10n import ENGLISH, N_, speaking, t
from cogs.uno.render import ButtonSpec, escape_name, plural, variant_name
from cogs.uno.render.specs import Component, OptionSpec, SelectSpec
from cogs.uno.render.words import STRENGTH_WORDS, computer_number, seat_name
from cogs.uno.table.options import TableOptions
from engine.match import Variant
from engine.players import STRENGTHS

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
    strength: str = "normal"  # of the next computer the host seats
    computers: dict[int, str] = field(default_factory=dict)  # computer id -> strength
    language: str = ENGLISH  # the server's: the lobby message is public

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
        with speaking(self.language):
            return self._embed(note)

    def _embed(self, note: str | None) -> discord.Embed:
        title = variant_name(self.variant)
        low, high = SEATS[self.variant]
        host = escape_name(self.seats[0][1]) if self.seats else "?"
        if self.variant == "duo" and self.invited_id is not None:
            invited = (
                f"**{escape_name(self.invited_name)}**"
                if self.invited_name is not None
                else f"<@{self.invited_id}>"
            )
            description = t(
                "**{host}** challenges {invited} to a match of {game}.",
                host=host,
                invited=invited,
                game=title,
            )
        elif self.variant == "duo":
            description = t(
                "**{host}** wants to play {game}. The first to press **Join** plays.",
                host=host,
                game=title,
            )
        else:
            description = t(
                "**{host}** opened a {game} table for {low} to {high} players. "
                "Press **Join** to sit down; the host starts.",
                host=host,
                game=title,
                low=low,
                high=high,
            )
        embed = discord.Embed(
            title=t("{game} — lobby", game=title), description=description, colour=NEUTRAL
        )
        ids = [uid for uid, _ in self.seats]
        seated = [
            f"• {escape_name(seat_name(name, number=computer_number(ids, uid)))}"
            for uid, name in self.seats
        ]
        embed.add_field(
            name=t("Seated ({count}/{limit})", count=len(self.seats), limit=high),
            value="\n".join(seated) or t("nobody yet"),
            inline=True,
        )
        embed.add_field(name=t("Target"), value=plural(self.target, "point"), inline=True)
        embed.add_field(name=t("Options"), value=self.play.words()[:1024], inline=True)
        when = f"<t:{int(self.expires_at.timestamp())}:R>"
        embed.add_field(
            name=t("Expires"),
            value=t("{when} if it hasn't started", when=when),
            inline=True,
        )
        if note:
            embed.add_field(name="\u200b", value=note[:1024], inline=False)
        return embed

    def components(self) -> list[Component]:
        with speaking(self.language):
            return self._components()

    def _components(self) -> list[Component]:
        def button(label: str, code: str, style: discord.ButtonStyle) -> ButtonSpec:
            custom_id = ids.lobby_custom_id(self.lobby_id, self.version, code)
            return ButtonSpec(
                label=t(label), custom_id=custom_id, style=style, emoji=None, disabled=False, row=0
            )

        if self.variant == "duo" and self.invited_id is not None:
            return [
                button(N_("Accept"), "accept", discord.ButtonStyle.success),
                button(N_("Decline"), "decline", discord.ButtonStyle.secondary),
            ]
        strength = SelectSpec(
            custom_id=ids.lobby_custom_id(self.lobby_id, self.version, "strength"),
            placeholder=t("Computer strength: {strength}", strength=_strength(self.strength)),
            options=tuple(
                OptionSpec(label=t("Computer: {strength}", strength=_strength(s)), value=s)
                for s in STRENGTHS
            ),
            row=1,
        )
        if self.variant == "duo":
            return [
                button(N_("Join"), "join", discord.ButtonStyle.success),
                button(N_("Cancel"), "cancel", discord.ButtonStyle.secondary),
                button(N_("Play the computer"), "computer", discord.ButtonStyle.primary),
                strength,
            ]
        return [
            button(N_("Join"), "join", discord.ButtonStyle.success),
            button(N_("Leave"), "leave", discord.ButtonStyle.secondary),
            button(N_("Start"), "start", discord.ButtonStyle.primary),
            button(N_("Cancel"), "cancel", discord.ButtonStyle.danger),
            button(N_("Add computer"), "addcpu", discord.ButtonStyle.secondary),
            strength,
        ]

    def closed_embed(self, reason: str) -> discord.Embed:
        with speaking(self.language):
            title = t("{game} — lobby closed", game=variant_name(self.variant))
        return discord.Embed(title=title, description=reason, colour=NEUTRAL)


def _strength(strength: str) -> str:
    words = STRENGTH_WORDS.get(strength)
    return strength if words is None else t(words)
