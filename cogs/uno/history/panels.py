"""`/uno history`, `/uno replay` and their controls: private pages and replay panels.

Every click says which page or step it wants (cogs/uno/history/ids.py), so a panel
holds no state: a step is rebuilt from the kept replay (library.py) on each click.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.uno.history import ids
from cogs.uno.history.library import ReplayLibrary
from cogs.uno.history.no_replay import NoReplay
from cogs.uno.history.render import history_page, no_replay_words, replay_panel
from cogs.uno.i18n.l10n import member_language, server_language, speaking, t
from cogs.uno.render import ButtonSpec, escape_name
from cogs.uno.transport import answers, payloads
from cogs.uno.transport.issued import click_data, issued
from db.database import Database
from db.models import Variant

VARIANTS: dict[str, Variant] = {"duo": "duo", "pizza": "pizza", "classic": "classic"}
PAGE_SIZE = 10


class HistoryPanels:
    """Members' finished matches and the replays of them."""

    def __init__(self, db: Database, library: ReplayLibrary) -> None:
        self.db = db
        self.library = library

    # -- history pages -----------------------------------------------------------------

    async def history(
        self, interaction: discord.Interaction[Any], member: discord.abc.User, variant: str | None
    ) -> None:
        """A member's finished matches here, privately, with Share."""
        data = await self._page(interaction, member.id, member.display_name, variant, 1)
        await answers.send_private(interaction, _with_share(data, member.id, variant, 1))

    async def _page(
        self,
        interaction: discord.Interaction[Any],
        member: int,
        name: str,
        variant: str | None,
        page: int,
    ) -> dict[str, Any]:
        assert interaction.guild_id is not None
        found = await self.db.history.member_matches(
            guild_id=interaction.guild_id,
            user_id=member,
            variant=VARIANTS.get(variant or ""),
            page=page,
            page_size=PAGE_SIZE,
        )
        embed, specs = history_page(found, member=member, name=name, variant=variant)
        return {"embeds": [embed.to_dict()], "components": payloads.rows(specs)}

    async def click(self, interaction: discord.Interaction[Any], control: ids.HistoryClick) -> None:
        """A history page's pager, Share or replay select; a replay panel's step or round."""
        custom_id, values = click_data(interaction)
        if interaction.guild_id is None or not issued(interaction.message, custom_id, values):
            await answers.reply(interaction, t("That button is no longer valid."))
            return
        if control.kind in ("page", "share"):
            await self._turn_page(interaction, control)
            return
        step = control.step
        match_id = control.match_id
        if control.kind == "pick":
            match_id, step = int(values[0]), 0
        elif control.kind == "round":
            step = int(values[0])
        private = interaction.message is not None and interaction.message.flags.ephemeral
        await self.show(interaction, match_id, step=step, new=not private or control.kind == "pick")

    async def _turn_page(
        self, interaction: discord.Interaction[Any], control: ids.HistoryClick
    ) -> None:
        variant = None if control.variant == ids.ALL else control.variant
        name = await _member_name(interaction, control.member)
        if control.kind == "share":
            with speaking(server_language(interaction)):  # the channel's message
                data = await self._page(interaction, control.member, name, variant, control.page)
                shared = t("Shared by {player}", player=escape_name(interaction.user.display_name))
            await answers.respond(interaction, {**data, "content": shared})
            return
        private = interaction.message is not None and interaction.message.flags.ephemeral
        # A shared page is the channel's: it stays in the server's language.
        with speaking(member_language(interaction) if private else server_language(interaction)):
            data = await self._page(interaction, control.member, name, variant, control.page)
            if private:
                data = _with_share(data, control.member, variant, control.page)
        await answers.update(interaction, data)

    # -- replays -------------------------------------------------------------------------

    async def show(
        self, interaction: discord.Interaction[Any], match_id: int, *, step: int, new: bool
    ) -> None:
        """Step `step` of the match's replay: a new private panel, or this one moved on."""
        assert interaction.guild_id is not None
        try:
            loaded = await self.library.load(match_id, guild_id=interaction.guild_id)
        except NoReplay as refusal:
            await answers.reply(interaction, no_replay_words(refusal.reason))
            return
        viewer = str(interaction.user.id)
        frame = loaded.replay.frame(step, viewer)
        data = replay_panel(loaded, frame, viewer=viewer)
        if new:
            await answers.send_private(interaction, data)
        else:
            await answers.update(interaction, data)


def _with_share(
    data: dict[str, Any], member: int, variant: str | None, page: int
) -> dict[str, Any]:
    share = ButtonSpec(
        label=t("Share"),
        custom_id=ids.page_id(member, variant, page, share=True),
        style=discord.ButtonStyle.secondary,
        emoji="📢",
        row=2,
    )
    return {**data, "components": [*data.get("components", []), *payloads.rows([share])]}


async def _member_name(interaction: discord.Interaction[Any], member: int) -> str:
    """The member's name as this server shows it; their id's last digits if unknown."""
    if member == interaction.user.id:
        return interaction.user.display_name
    guild = interaction.guild
    known = guild.get_member(member) if guild is not None else None
    if known is not None:
        return known.display_name
    return t("Player …{digits}", digits=str(member)[-4:])
