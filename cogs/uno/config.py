"""What the UNO cog is configured with: passed in by bot.py, never looked up."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class UnoSettings:
    """The cog's knobs; bot.py fills them from config.Settings."""

    turn_seconds: int = 90
    table_seed: int | None = None
    # A member may challenge the same member again only after this many seconds:
    # each challenge pings them.
    challenge_cooldown: float = 60.0
    # Open lobbies per server; each holds a channel and pings or waits for people.
    lobbies_per_server: int = 10
    # A computer seat waits about this long (seconds, varied a little) before it moves.
    computer_delay: float = 1.5
    # Days a finished match's action log is kept for replays; 0: forever.
    replay_days: int = 0
