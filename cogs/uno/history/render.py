"""History pages and replay panels: pure functions of the stored matches and frames.

A replay step's first embed is the live table's own (`render.table_embed`), drawn
from the replayed public view: the same words, seats and last moves the table
showed at that moment, without its deadline. The viewer's own hand follows, as
their hand panel titled it; a step that ended a round adds the round's summary,
which the channel saw. Nothing else is drawn, so no other player's card can be.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from cogs.uno import render
from cogs.uno.history import ids
from cogs.uno.history.loaded import Loaded
from cogs.uno.i18n.l10n import t, tn
from cogs.uno.render import ButtonSpec, OptionSpec, SelectSpec
from cogs.uno.render.words import fit_lines, hand_lines
from cogs.uno.transport import payloads
from db.history_models import HistoryPage, PastMatch
from db.models import FORGOTTEN_NAME
from engine.replay_frame import Frame

GOLD = 0xF1C40F
EMBEDS_TOTAL = 6000  # Discord's limit for all of a message's embeds together
ROUND_CHOICES = 25  # a select's options
LABELS = {
    "f": lambda: t("First"),
    "p": lambda: t("Back"),
    "n": lambda: t("Next"),
    "l": lambda: t("Last"),
}


def shown_names(names: Mapping[str, str]) -> dict[str, str]:
    """Seats' names as stored, a forgotten member's in the reader's language."""
    return {p: t("Deleted member") if n == FORGOTTEN_NAME else n for p, n in names.items()}


# -------------------------------------------------------------------- history


def _finisher_words(entry: PastMatch) -> str:
    parts = []
    for seat in entry.players:
        mark = "🏆" if seat.place == 1 else f"{seat.place}."
        name = render.escape_name(
            t("Deleted member") if seat.display_name == FORGOTTEN_NAME else seat.display_name
        )
        left = " " + t("(forfeited)") if seat.outcome == "forfeit" else ""
        parts.append(f"{mark} {name} {render.plural(seat.score, 'pt')}{left}")
    return " · ".join(parts)


def _line(entry: PastMatch) -> str:
    head = [
        f"**{render.variant_name(entry.variant)}**",
        f"<t:{int(entry.ended_at.timestamp())}:f>",
        tn("{count} round", "{count} rounds", entry.rounds),
    ]
    if entry.practice:
        head.append(t("practice"))
    head.append(t("match {match}", match=entry.match_id))
    return " · ".join(head) + "\n" + _finisher_words(entry)


def history_page(
    page: HistoryPage, *, member: int, name: str, variant: str | None
) -> tuple[discord.Embed, list[render.Component]]:
    """A member's finished matches, newest first, with a select to replay one."""
    title = t("{player} — finished matches", player=render.escape_name(name))
    if variant is not None:
        title += f" · {render.variant_name(variant)}"
    embed = discord.Embed(title=render.clip(title, 256), colour=GOLD)
    lines = [_line(entry) for entry in page.entries]
    embed.description = fit_lines(lines, 4000) or t("No finished match here yet.")
    embed.set_footer(
        text=t("Page {page} of {pages}", page=page.page, pages=page.pages)
        + f" · {render.plural(page.total, 'match')}"
    )
    specs: list[render.Component] = []
    if page.entries:
        options = tuple(
            OptionSpec(
                label=render.clip(
                    t("Replay match {match}", match=e.match_id)
                    + f" · {render.variant_name(e.variant)}",
                    render.OPTION_LABEL,
                ),
                value=str(e.match_id),
                description=render.clip(_plain_finishers(e), render.OPTION_DESCRIPTION),
                emoji="🎬",
            )
            for e in page.entries
        )
        specs.append(
            SelectSpec(
                custom_id=ids.PICK_ID, placeholder=t("Replay a match…"), options=options, row=0
            )
        )
    if page.pages > 1:

        def button(label: str, number: int, disabled: bool) -> ButtonSpec:
            return ButtonSpec(
                label=label,
                custom_id=ids.page_id(member, variant, number),
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                row=1,
            )

        specs.append(button(t("◀ Previous"), page.page - 1, page.page <= 1))
        specs.append(button(t("Next ▶"), page.page + 1, page.page >= page.pages))
    return embed, specs


def _plain_finishers(entry: PastMatch) -> str:
    return ", ".join(
        f"{seat.place}. "
        + (t("Deleted member") if seat.display_name == FORGOTTEN_NAME else seat.display_name)
        for seat in entry.players
    )


# ------------------------------------------------------------------- replays


def replay_panel(loaded: Loaded, frame: Frame, *, viewer: str) -> dict[str, Any]:
    """One step of a replay, as a message's payload (content, embeds, components)."""
    names = shown_names(loaded.names)
    table = render.table_embed(
        frame.public,
        names=names,
        table_id=loaded.match_id,
        deadline=None,
        options=loaded.options.words(),
        missed=loaded.missed(frame.step),
    )
    embeds = [table]
    if frame.hand is not None:  # within what the table leaves of a message's embed text
        embeds.append(own_hand(frame, table.colour, limit=EMBEDS_TOTAL - len(table) - 100))
    if frame.round_ended is not None:
        summary = render.round_summary(frame.round_ended, names, loaded.variant)
        if sum(len(e) for e in embeds) + len(summary) <= EMBEDS_TOTAL:
            embeds.append(summary)
    content = t(
        "Replay of match {match} · step {step} of {steps}",
        match=loaded.match_id,
        step=frame.step,
        steps=frame.steps,
    )
    if frame.hand is None and viewer not in loaded.players:
        content += "\n" + t("You didn't play in this match: you see what the table showed.")
    return {
        "content": content,
        "embeds": [e.to_dict() for e in embeds],
        "components": payloads.rows(_controls(loaded, frame)),
        "allowed_mentions": {"parse": []},
    }


def own_hand(
    frame: Frame, colour: discord.Colour | int | None, *, limit: int = 4000
) -> discord.Embed:
    """The viewer's own hand at this step, titled as their hand panel titles it, its
    lines within `limit` characters."""
    hand = frame.hand or ()
    return discord.Embed(
        title=tn("Your hand · {count} card", "Your hand · {count} cards", len(hand)),
        description=fit_lines(hand_lines(hand), max(0, min(limit, 4000))) or t("No cards."),
        colour=colour,
    )


def _controls(loaded: Loaded, frame: Frame) -> list[render.Component]:
    step, last, match = frame.step, frame.steps, loaded.match_id

    def button(emoji: str, to: int, tag: str, disabled: bool) -> ButtonSpec:
        return ButtonSpec(
            label=LABELS[tag](),
            custom_id=ids.step_id(match, to, tag),
            style=discord.ButtonStyle.secondary,
            emoji=emoji,
            disabled=disabled,
            row=0,
        )

    specs: list[render.Component] = [
        button("⏮", 0, "f", step <= 0),
        button("◀", step - 1, "p", step <= 0),
        button("▶", step + 1, "n", step >= last),
        button("⏭", last, "l", step >= last),
    ]
    starts = sorted(loaded.replay.round_starts.items())
    if len(starts) > 1:
        now = loaded.replay.round_at(step)
        first = max(0, min(now - ROUND_CHOICES // 2, len(starts) - ROUND_CHOICES))
        options = tuple(
            OptionSpec(label=t("Round {round}", round=number), value=str(at))
            for number, at in starts[first : first + ROUND_CHOICES]
        )
        specs.append(
            SelectSpec(
                custom_id=ids.round_id(match),
                placeholder=t("Jump to a round (now round {round})", round=now),
                options=options,
                row=1,
            )
        )
    return specs


def replay_button(match_id: int) -> ButtonSpec:
    """The match summary's Replay: a private replay panel for whoever presses it."""
    return ButtonSpec(
        label=t("Replay"),
        custom_id=ids.step_id(match_id, 0, "o"),
        style=discord.ButtonStyle.secondary,
        emoji="🎬",
    )


def no_replay_words(reason: str) -> str:
    """Why a match cannot be replayed, plainly."""
    if reason == "dropped":
        return t("This match's moves are no longer kept, so it can't be replayed.")
    if reason == "unreplayable":
        return t(
            "This match can't be replayed any more: the rules changed since it was played, "
            "and I won't show moves that didn't happen that way."
        )
    return t("There's no finished match with that number in this server.")
