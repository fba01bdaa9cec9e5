"""The hard computer: determinised Monte Carlo search of a fixed size, with a time cap.

At each decision of its own (play or draw, which card, the colour, a challenge,
a volley, a dump, a give) it samples the cards it cannot see consistently with
everything public (`engine.players.world`; at Pizza and classic tables, favouring
hands that explain the opponents' choices read as the normal player's,
`engine.players.reading`), plays every candidate move out in
each sampled world with the engine and the normal player (`engine.players.
search`), and takes the move with the best average. The same world and the same
random stream serve every candidate, so the comparison is fair even with few
samples. It departs from its rule of thumb only when the search shows another move
better: the normal player's, at classic tables its refinement (`engine.players.
classic_play`: no bluffed Wild Draw 4, the turn kept from a player about to go out).
The search is sized by playouts, not by time, so the player is the same
on a busy machine as on a quiet one (a time cap only guards against a stall).
It always calls UNO and catches every forgotten call; draft picks (no card is
laid yet) follow the normal player's rule of thumb.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from engine.actions import Action, CallUno, CatchUno, Dump, Play
from engine.match import Options
from engine.players.classic_play import classic_action, play_bonus
from engine.players.memory import Memory
from engine.players.normal import normal_action, ranked
from engine.players.search import playout
from engine.players.tactics import jump_in, with_uno
from engine.players.world import sample_world
from engine.views import Pending, PrivateView, PublicView

_CALL = CallUno()
_CATCH = CatchUno()
_NO_SEARCH = frozenset({Pending.DRAFT_PICK, Pending.DRAFT_FORCED})
MAX_CANDIDATES = 6
# Playouts a decision (sampled worlds x candidates), and never fewer worlds than this. At
# Pizza and classic tables a move's value differs from the usual one's by little, so more
# worlds are needed to tell them apart (160: decision p99 about 250 ms of CPU).
PLAYOUTS = 96
TABLE_PLAYOUTS = 160
MIN_SAMPLES = 12
BUDGET_MS = 250.0  # the safety cap on one search's time
# Standard errors of the paired difference a move must beat the usual one by. At a Pizza
# or classic table the moves the search prefers are better on average even when the
# margin is small: judged from the true state over 100 whole rounds each, the moves it
# chose over normal's gained about as much per move at 0.5 as at 1.65, and it made
# three times as many (bench/paired.py measures the whole matches).
CONFIDENCE = 1.0
TABLE_CONFIDENCE = 0.5
# Decisions (of every seat) a playout runs before the round is judged by hand sizes. At
# Pizza and classic tables a move's effect fades sooner and more samples fit the budget
# (measured: 50 four-seat Pizza matches each, 20 did better than 40).
DUO_DEPTH = 40
TABLE_DEPTH = 20


def better_than(base: int, results: list[list[float]], z: float = CONFIDENCE) -> int:
    """The candidate to play: `base` (the normal player's move) unless another did
    better in the same worlds by more than `z` standard errors of the paired difference.

    With few samples the averages are noisy; trusting the search only where it is
    clearly better keeps the hard player at least as good as its rule of thumb.
    """
    n = len(results)
    if n < 2:
        return base
    best, best_mean = base, 0.0
    for k in range(len(results[0])):
        if k == base:
            continue
        diffs = [values[k] - values[base] for values in results]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > best_mean and mean > z * math.sqrt(var / n):
            best, best_mean = k, mean
    return best


class HardPlayer:
    """The hard computer opponent.

    The search is sized by work, not time, so it plays the same on a busy machine
    as on a quiet one: `playouts` playouts a decision in all (sampled worlds times
    candidates; None: `PLAYOUTS` in Duo, `TABLE_PLAYOUTS` at Pizza and classic
    tables). `budget_ms` is only a safety cap on the time of one search: it stops
    before a sample would run over (at least one sample is always taken).
    `samples` fixes the number of sampled worlds instead, for reproducible tests.
    `depth` overrides the playouts' length (decisions). `options` are the table's
    options (target, Duo's deck and challenge rule), public at the table; the
    defaults when None.
    """

    __slots__ = (
        "budget",
        "capped",
        "depth",
        "failures",
        "last_samples",
        "memory",
        "options",
        "playouts",
        "rng",
        "samples",
    )

    def __init__(
        self,
        player: str,
        rng: random.Random,
        *,
        budget_ms: float = BUDGET_MS,
        playouts: int | None = None,
        samples: int | None = None,
        depth: int | None = None,
        options: Options | None = None,
    ) -> None:
        self.rng = rng
        self.memory = Memory(player)
        self.budget = budget_ms / 1000
        self.samples = samples
        self.playouts = playouts
        self.depth = depth
        self.options = options
        self.failures = 0  # sampled worlds the engine refused or failed on (a bug if > 0)
        self.last_samples = 0
        self.capped = 0  # searches the time cap stopped short of `playouts`

    def act(self, me: PrivateView, table: PublicView) -> Action | None:
        self.memory.observe(me, table)
        legal = me.legal
        if not legal:
            return None
        if _CALL in legal:
            return _CALL
        if _CATCH in legal:
            return _CATCH
        if table.to_act != me.player:
            return jump_in(legal)  # a card and the turn for nothing: always worth it
        if table.pending in _NO_SEARCH:
            return normal_action(me, table, self.rng, self.memory)
        candidates = self._candidates(me, table)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(me, table, candidates)

    def _candidates(self, me: PrivateView, table: PublicView) -> Sequence[Action]:
        moves = [a for a in with_uno(me.legal) if not isinstance(a, CallUno | CatchUno)]
        if len(moves) <= MAX_CANDIDATES:
            return moves
        # Too many to judge well in the time: the plays the normal player likes best.
        liked = sorted(self._liked(me, table), key=lambda pair: -pair[0])
        keep = [a for _, a in liked[: MAX_CANDIDATES - 1]]
        rest = [a for a in moves if a not in keep]
        rest.sort(key=lambda a: isinstance(a, Play | Dump))  # drawing first: always a choice
        return [*keep, *rest[: MAX_CANDIDATES - len(keep)]]

    def _liked(self, me: PrivateView, table: PublicView) -> list[tuple[float, Action]]:
        scored = ranked(me, table)
        if table.variant != "classic":
            return scored
        return [(s + play_bonus(a, me, table, self.memory), a) for s, a in scored]

    def _usual(self, me: PrivateView, table: PublicView) -> Action:
        """The move the rule of thumb makes: at classic tables, `engine.players.classic_play`."""
        if table.variant == "classic":
            return classic_action(me, table, self.rng, self.memory)
        return normal_action(me, table, self.rng, self.memory)

    def _search(self, me: PrivateView, table: PublicView, candidates: Sequence[Action]) -> Action:
        results: list[list[float]] = []  # per sample, a value per candidate
        started = time.perf_counter()
        tries = 0
        playouts = self.playouts or (PLAYOUTS if table.variant == "duo" else TABLE_PLAYOUTS)
        wanted = self.samples or max(MIN_SAMPLES, -(-playouts // len(candidates)))
        while tries < 4 * wanted and len(results) < wanted:
            done = len(results)
            if self.samples is None and done >= 1:
                spent = time.perf_counter() - started
                if spent + spent / done > self.budget:  # the next sample would overrun
                    self.capped += 1
                    break
            tries += 1
            values = self._sample(me, table, candidates)
            if values is not None:
                results.append(values)
        self.last_samples = len(results)
        usual = self._usual(me, table)
        base = candidates.index(usual) if usual in candidates else 0
        z = CONFIDENCE if table.variant == "duo" else TABLE_CONFIDENCE
        return candidates[better_than(base, results, z)]

    def _sample(
        self, me: PrivateView, table: PublicView, candidates: Sequence[Action]
    ) -> list[float] | None:
        """Every candidate played out in one sampled world, with the same random stream."""
        world = sample_world(me, table, self.memory, self.rng, self.options)
        depth = self.depth or (DUO_DEPTH if table.variant == "duo" else TABLE_DEPTH)
        seed = self.rng.getrandbits(64)
        try:
            return [playout(world, me.player, a, random.Random(seed), depth) for a in candidates]
        except Exception:  # a bad world must not stop the seat; the tests count them
            self.failures += 1
            return None
