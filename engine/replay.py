"""A finished match stepped through again from its seed and action log (X4).

The log is run once, whole, when the replay is built: an action the rules no
longer accept (a log from before a rules change) makes the match unreplayable
(`Unreplayable`) rather than shown wrong. A step is rebuilt from the nearest
checkpoint (a snapshot taken every `CHECKPOINT_EVERY` steps, kept in memory
only) so that any step of a long match is a few milliseconds away.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.actions import Action
from engine.errors import IllegalAction
from engine.events import Event, RoundEnded, RoundStarted
from engine.match import Match, Options, Variant, from_snapshot, new_match
from engine.placing import Placing
from engine.replay_frame import Frame
from engine.unreplayable import Unreplayable

CHECKPOINT_EVERY = 100  # about 1.5 ms of actions past a checkpoint, 0.3 ms to take one

LogEntry = tuple[str, Action | None]  # (player, action); None: the player left (X3)


class Replay:
    """Frames of one match for any viewer, from its seed and log."""

    def __init__(
        self,
        variant: Variant,
        *,
        players: Sequence[str],
        seed: int,
        options: Options,
        log: Sequence[LogEntry],
    ) -> None:
        self._log = tuple(log)
        self._checkpoints: dict[int, dict[str, Any]] = {}
        self.events: list[tuple[Event, ...]] = [()]  # per step; step 0 is the start
        self.round_starts: dict[int, int] = {}  # round number -> its first step
        try:
            match = new_match(variant, players=players, seed=seed, options=options)
            self._run(match)
        except (IllegalAction, ValueError, KeyError, IndexError) as error:
            raise Unreplayable(str(error)) from error
        if not match.is_over:
            raise Unreplayable("the log ends before the match does")
        self.final: Match = match
        self._cursor: Match | None = None
        self._at = -1

    def _run(self, match: Match) -> None:
        view = match.public_view()
        if view.round >= 1:
            self.round_starts[view.round] = 0
        for step, (player, action) in enumerate(self._log, start=1):
            if (step - 1) % CHECKPOINT_EVERY == 0:
                self._checkpoints[step - 1] = match.to_snapshot()
            events = _apply(match, player, action)
            self.events.append(tuple(events))
            for event in events:
                if isinstance(event, RoundStarted):
                    self.round_starts.setdefault(event.round, step)
        if self.steps % CHECKPOINT_EVERY == 0:  # the last block starts at the very end
            self._checkpoints[self.steps] = match.to_snapshot()

    @property
    def steps(self) -> int:
        """Steps after the start: one per logged action."""
        return len(self._log)

    def placings(self) -> tuple[Placing, ...]:
        return self.final.placings()

    def round_at(self, step: int) -> int:
        """The round being played at `step` (0 before the first one starts)."""
        return max((r for r, first in self.round_starts.items() if first <= step), default=0)

    def frame(self, step: int, viewer: str | None) -> Frame:
        """The table after `step` actions, with `viewer`'s own hand if they played."""
        step = min(max(step, 0), self.steps)
        match = self._match_at(step)
        hand = None
        if viewer is not None and viewer in match.players:
            hand = match.private_view(viewer).hand
        ended = next((e for e in self.events[step] if isinstance(e, RoundEnded)), None)
        return Frame(
            step=step, steps=self.steps, public=match.public_view(), hand=hand, round_ended=ended
        )

    def _match_at(self, step: int) -> Match:
        if self._cursor is None or not self._at <= step < self._at + CHECKPOINT_EVERY:
            base = step - step % CHECKPOINT_EVERY
            self._cursor, self._at = from_snapshot(self._checkpoints[base]), base
        while self._at < step:
            player, action = self._log[self._at]
            _apply(self._cursor, player, action)
            self._at += 1
        return self._cursor


def _apply(match: Match, player: str, action: Action | None) -> list[Event]:
    if action is None:
        return match.remove_player(player)
    return match.apply_logged(player, action)
