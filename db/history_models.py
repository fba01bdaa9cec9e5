"""What the history repository returns: finished matches, and what replays one."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from db.models import LoggedAction, MatchRow, Outcome, Variant


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Finisher(_Model):
    """One seat of a finished match, in finishing order (place 1 first)."""

    seat: int
    user_id: int
    display_name: str
    place: int
    score: int
    outcome: Outcome


class PastMatch(_Model):
    """A finished match as a history line shows it."""

    match_id: int
    variant: Variant
    ended_at: datetime
    practice: bool
    rounds: int
    players: list[Finisher]


class HistoryPage(_Model):
    """One page of a member's finished matches, newest first."""

    entries: list[PastMatch]
    page: int = Field(ge=1)
    pages: int = Field(ge=1)
    total: int = Field(ge=0)


class StoredMatch(_Model):
    """A finished match's row, seats, results and action log: all a replay needs."""

    match: MatchRow
    results: list[Finisher]
    actions: list[LoggedAction]
