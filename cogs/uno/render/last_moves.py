"""The table's "Last moves": one line per public event, a challenge told with its reason.

A challenge's verdict is told publicly without any hidden card: whether the
challenged player could have played another card, and who draws how many (the
draw that follows the verdict is folded into its line).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cogs.uno.i18n.l10n import t, tn
from cogs.uno.render.words import card_label, describe_event, name
from engine.events import CardPlayed, CardsDrawn, ChallengeResolved, DrawReason, Event


def last_moves(
    recent: Sequence[Event], names: Mapping[str, str], variant: str, *, keep: int | None = None
) -> list[str]:
    """The log lines of `recent` (oldest first); with `keep`, only the last `keep` of them.

    Every panel and table edit shows the last few lines of the same ten events: with
    `keep`, only the events those lines come from are put in words (a line per event,
    but a verdict folds its draw in and some events say nothing, hence the loop).
    """
    if keep is None:
        return _lines_from(recent, 0, names, variant)
    start = max(len(recent) - keep, 0)
    while True:
        lines = _lines_from(recent, start, names, variant)
        if len(lines) >= keep or start == 0:
            return lines[-keep:] if keep > 0 else []
        start = max(start - (keep - len(lines)), 0)


def _lines_from(
    recent: Sequence[Event], start: int, names: Mapping[str, str], variant: str
) -> list[str]:
    """The log lines of `recent[start:]`, a draw told by an earlier verdict left out."""
    folded = {
        draw_at
        for at in range(start)
        if isinstance(recent[at], ChallengeResolved)
        and (draw_at := _draw_at(recent, at)) is not None
    }
    lines: list[str] = []
    for at in range(start, len(recent)):
        if at in folded:
            continue
        event = recent[at]
        line: str | None
        if isinstance(event, ChallengeResolved):
            line, draw_at = verdict_line(recent, at, names)
            if draw_at is not None:
                folded.add(draw_at)
        else:
            line = describe_event(event, names, variant=variant)
        if line is not None:
            lines.append(line)
    return lines


def _draw_at(recent: Sequence[Event], at: int) -> int | None:
    """The index of the draw the verdict at `recent[at]` tells of, if still in `recent`."""
    verdict = recent[at]
    assert isinstance(verdict, ChallengeResolved)
    drawer = verdict.challenger if verdict.legitimate else verdict.challenged
    return next(
        (
            i
            for i in range(at + 1, len(recent))
            if isinstance(e := recent[i], CardsDrawn)
            and e.player == drawer
            and e.reason is DrawReason.CHALLENGE
        ),
        None,
    )


def verdict_line(
    recent: Sequence[Event], at: int, names: Mapping[str, str]
) -> tuple[str, int | None]:
    """The verdict at `recent[at]` in words, and the index of the draw it tells of."""
    verdict = recent[at]
    assert isinstance(verdict, ChallengeResolved)
    challenger = name(names, verdict.challenger)
    challenged = name(names, verdict.challenged)
    wild = _wild(recent, at, verdict.challenged)
    drawer = verdict.challenger if verdict.legitimate else verdict.challenged
    draw_at = _draw_at(recent, at)
    if verdict.legitimate:
        line = t(
            "{challenger} challenged {challenged}: the {wild} was legal",
            challenger=challenger,
            challenged=challenged,
            wild=wild,
        )
    else:
        line = t(
            "{challenger} challenged {challenged}: {challenged} could have played another "
            "card, so the {wild} was a bluff",
            challenger=challenger,
            challenged=challenged,
            wild=wild,
        )
    if draw_at is not None:
        drawn = recent[draw_at]
        assert isinstance(drawn, CardsDrawn)
        who = name(names, drawer)
        line += tn(
            ": {who} draws {count} card", ": {who} draws {count} cards", drawn.count, who=who
        )
    return line, draw_at


def _wild(recent: Sequence[Event], at: int, player: str) -> str:
    """The draw-wild that was challenged, as a card label ("wild" if it left the log)."""
    for event in reversed(recent[:at]):
        if isinstance(event, CardPlayed) and event.player == player:
            return card_label(event.card)
    return t("wild")
