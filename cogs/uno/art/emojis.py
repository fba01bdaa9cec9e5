"""The card pictures as the bot's application emojis, made sure of at start-up.

Idempotent by name: a name carries the picture's content hash, so a restart finds every
name and uploads nothing, and a redrawn card gets a new name (uploaded) while its old
emoji is deleted. If Discord refuses (no application, an error, the limit), the bot has
no emojis and every lookup answers None: the caller shows its colour squares and words.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import discord

from cogs.uno.transport.priority import Priority, priority

from .catalog import EMOJI_PREFIX, HASH_LENGTH, art_key, art_keys, card_image, emoji_name

log = logging.getLogger(__name__)

EMOJI_LIMIT = 2000  # an application's emojis, Discord's limit
# Names this module made (catalog.emoji_name): only these are ever deleted, so an
# emoji the owner uploaded by hand, even "uno_logo", stays.
OUR_NAME = re.compile(rf"{EMOJI_PREFIX}[a-z0-9_]+_[0-9a-f]{{{HASH_LENGTH}}}")


@dataclass(frozen=True)
class SyncResult:
    """What one sync did; `ok` is False when the bot is left without emojis."""

    ok: bool
    created: int = 0
    deleted: int = 0
    kept: int = 0


def every_card_image() -> dict[str, bytes]:
    return {key: card_image(key) for key in art_keys()}


class CardEmojis:
    """Card key -> the application emoji showing it, once `sync` has succeeded."""

    def __init__(
        self,
        images: Callable[[], Mapping[str, bytes]] = every_card_image,
    ) -> None:
        self._images = images  # drawn in a worker thread: about 2 s of Pillow work
        self._emojis: dict[str, discord.PartialEmoji] = {}
        # `inline`'s answers: every panel writes most of a hand's cards this way
        self._inline: dict[tuple[str, str | None], str | None] = {}
        self.last: SyncResult | None = None

    def _use(self, emojis: dict[str, discord.PartialEmoji]) -> None:
        self._emojis = emojis
        self._inline = {}

    @property
    def ready(self) -> bool:
        return bool(self._emojis)

    async def sync(self, client: discord.Client) -> SyncResult:
        """Upload what is missing, delete our stale emojis, remember the rest.

        Run it once after login (application_id must be known), e.g. as a task from
        setup_hook: until it is done every lookup answers None.
        """
        images = await asyncio.to_thread(self._images)
        wanted = {emoji_name(key, png): (key, png) for key, png in images.items()}
        try:
            # Cards show as words meanwhile: the tables' own requests go first.
            with priority(Priority.EDIT):
                result = await self._sync(client, wanted)
        except (discord.HTTPException, discord.MissingApplicationID) as error:
            log.warning("Card emojis unavailable, showing cards as words: %s", error)
            self._use({})
            result = SyncResult(ok=False)
        self.last = result
        return result

    async def _sync(
        self, client: discord.Client, wanted: Mapping[str, tuple[str, bytes]]
    ) -> SyncResult:
        existing = await client.fetch_application_emojis()
        ours = [e for e in existing if OUR_NAME.fullmatch(e.name)]
        stale = [e for e in ours if e.name not in wanted]
        have = {e.name: e for e in ours if e.name in wanted}
        missing = [name for name in wanted if name not in have]
        total = len(existing) - len(stale) + len(missing)
        if total > EMOJI_LIMIT:
            log.warning("Card emojis need %d of %d emoji slots: not uploading", total, EMOJI_LIMIT)
            return SyncResult(ok=False, kept=len(have))
        kept = len(have)
        # Each upload and delete is a bot-token request: the process's request budget
        # paces them with every other (a first start uploads 87), after the tables'.
        for emoji in stale:
            await emoji.delete()
        for name in missing:
            have[name] = await client.create_application_emoji(name=name, image=wanted[name][1])
        self._use(
            {
                key: discord.PartialEmoji(name=name, id=have[name].id)
                for name, (key, _) in wanted.items()
            }
        )
        log.info(
            "Card emojis ready: %d uploaded, %d deleted, %d kept", len(missing), len(stale), kept
        )
        return SyncResult(ok=True, created=len(missing), deleted=len(stale), kept=kept)

    # -- lookups: None when there are no emojis (fall back to words) ------------------------

    def partial(self, code: str, named: str | None = None) -> discord.PartialEmoji | None:
        """The emoji for a button or select option: `partial("R5")`, `partial("W", "B")`."""
        return self._emojis.get(art_key(code, named))

    def inline(self, code: str, named: str | None = None) -> str | None:
        """`<:uno_r5_1a2b3c4d:123>`, to write the card's picture in message text."""
        key = (code, named)
        if key in self._inline:
            return self._inline[key]
        emoji = self.partial(code, named)
        text = self._inline[key] = None if emoji is None else str(emoji)
        return text

    def url(self, code: str, named: str | None = None) -> str | None:
        """The emoji's image URL, for an embed thumbnail of the top card."""
        emoji = self.partial(code, named)
        return None if emoji is None else emoji.url
