"""Pydantic models the repositories take and return (no engine types: JSON stays text)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, JsonValue

Variant = Literal["duo", "pizza", "classic"]
Outcome = Literal["won", "lost", "forfeit"]
MatchStatus = Literal["running", "finished", "abandoned"]

# Engine data arrives as JSON text (stored verbatim) or as a JSON-able value.
JsonInput = str | JsonValue
# A snapshot may be given lazily: it is only built when the policy stores one.
StateInput = JsonInput | Callable[[], JsonInput]

# Shown instead of a forgotten member's name, in other members' history.
FORGOTTEN_NAME = "Deleted member"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Seat(_Model):
    """A player of a match, as they were named when it started."""

    user_id: int
    display_name: str = Field(min_length=1, max_length=100)


class RoundResult(_Model):
    """A finished round: who went out, and the points each player scored in it.

    Duo (D14): the player who did not go out scores their hand (points conceded).
    Pizza (P11): the round winner scores every other hand. Players without an
    entry scored 0.
    """

    round_no: int = Field(ge=1)
    winner_id: int
    points: dict[int, int]


class PlayerResult(_Model):
    """One player's end of a match, decided by the bot (D14, P11, X3)."""

    user_id: int
    score: int = Field(ge=0)
    place: int = Field(ge=1)
    outcome: Outcome


class MatchRow(_Model):
    """A match row with its seats, as stored."""

    match_id: int
    guild_id: int
    channel_id: int
    variant: Variant
    options: dict[str, JsonValue]
    seed: int
    players: list[Seat]
    status: MatchStatus
    started_at: datetime
    ended_at: datetime | None
    message_id: int | None
    turn_deadline: datetime | None
    practice: bool = False  # against the computer: in no board, stats or rating


class LoggedAction(_Model):
    """One accepted action of the log."""

    seq: int
    player_id: int | None
    action_json: str
    created_at: datetime

    def action(self) -> JsonValue:
        """Return the action parsed from its JSON text."""
        value: JsonValue = json.loads(self.action_json)
        return value


class RunningTable(_Model):
    """Everything needed to rebuild a running table exactly as after its last action.

    Restore `snapshot_json` (the state after action `snapshot_seq`), then apply
    `actions` in order; their seqs are snapshot_seq + 1, + 2, ... with no gap.
    """

    match: MatchRow
    snapshot_seq: int
    snapshot_json: str
    actions: list[LoggedAction]
    # Who pressed "Keep the rest" in a Duo draft: user id -> the round of that draft.
    keepers: dict[int, int] = {}

    @property
    def last_seq(self) -> int:
        """The seq of the last accepted action (0 before any)."""
        return self.actions[-1].seq if self.actions else self.snapshot_seq


class PlayerStats(_Model):
    """One member's record in one guild and variant.

    `lost` counts forfeits too (X3); `forfeits` says how many of them were.
    `points`: in Pizza, points the member scored; in Duo, points they conceded
    (the loser of a Duo round scores, D14), so lower is better there.
    """

    user_id: int
    display_name: str
    variant: Variant
    played: int
    won: int
    lost: int
    forfeits: int
    win_rate: float
    rounds_won: int
    points: int
    current_streak: int
    best_streak: int


class LeaderboardEntry(_Model):
    """A leaderboard line: `place` is shared by ties (1, 2, 2, 4)."""

    place: int
    stats: PlayerStats


class LeaderboardPage(_Model):
    """One page of a guild's leaderboard, with what "page X of Y" needs."""

    variant: Variant
    page: int
    page_size: int
    total: int
    entries: list[LeaderboardEntry]

    @property
    def pages(self) -> int:
        """The number of pages (at least 1, so an empty board is "page 1 of 1")."""
        return max(1, -(-self.total // self.page_size))


class RecentMatch(_Model):
    """A member's finished match, for `/uno stats`."""

    match_id: int
    ended_at: datetime
    outcome: Outcome
    score: int
    place: int
    opponents: list[Seat]


class MemberStats(_Model):
    """One member's stats in one guild and variant, with their latest matches."""

    stats: PlayerStats
    recent: list[RecentMatch]


# Ranges the settings accept (the commands' own ranges for targets).
TURN_SECONDS_RANGE = (5, 3600)
TARGET_RANGE = (50, 1000)
DuoDeck = Literal[108, 112]


class GuildSettings(_Model):
    """A server's table settings; a new table reads them when it opens.

    Each field has its default here, not in the database: a server that never
    changed a setting follows the default. Strict: "90" is not 90, 1 is not True.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    turn_seconds: int = Field(default=90, ge=TURN_SECONDS_RANGE[0], le=TURN_SECONDS_RANGE[1])
    target_duo: int = Field(default=200, ge=TARGET_RANGE[0], le=TARGET_RANGE[1])  # D14
    target_pizza: int = Field(default=250, ge=TARGET_RANGE[0], le=TARGET_RANGE[1])  # P11
    target_classic: int = Field(default=500, ge=TARGET_RANGE[0], le=TARGET_RANGE[1])  # C11
    duo_deck: DuoDeck = 112  # D1: or the classic 108 cards
    duo_classic_challenge: bool = False  # D10: only a card of the active colour counts
    stacking: bool = False  # H1
    seven_o: bool = False  # H2
    jump_in: bool = False  # H3
    draw_to_match: bool = False  # H4
    thread_tables: bool = False  # each table in its own thread of the channel
    turn_ping_mentions: bool = True  # the turn ping mentions the player

    def target(self, variant: Variant) -> int:
        """The default target of a new table of `variant`."""
        targets = {
            "duo": self.target_duo,
            "pizza": self.target_pizza,
            "classic": self.target_classic,
        }
        return targets[variant]

    @property
    def house_rules(self) -> list[str]:
        """The classic house rules in play (field names, in H1-H4 order)."""
        rules = ("stacking", "seven_o", "jump_in", "draw_to_match")
        return [rule for rule in rules if getattr(self, rule)]


class MemberPrefs(_Model):
    """A member's own preferences, the same in every server."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    pings: bool = True  # /uno pings off: never mentioned by the bot
    tipped: bool = False  # shown the first-time tip on their first hand panel


class Rating(_Model):
    """A member's OpenSkill rating (Plackett-Luce) in one server and variant."""

    user_id: int
    variant: Variant
    mu: float
    sigma: float
    matches: int  # rated matches (practice matches are not rated)

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: what the leaderboard ranks by (the skill is likely above it)."""
        return self.mu - 3 * self.sigma


class RatingChange(_Model):
    """One match's change of a member's rating."""

    match_id: int
    ended_at: datetime
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float

    @property
    def conservative_before(self) -> float:
        """mu - 3 sigma before the match."""
        return self.mu_before - 3 * self.sigma_before

    @property
    def conservative_after(self) -> float:
        """mu - 3 sigma after the match."""
        return self.mu_after - 3 * self.sigma_after


class RatingEntry(_Model):
    """A line of the rating leaderboard: `place` is shared by equal estimates."""

    place: int
    user_id: int
    display_name: str
    mu: float
    sigma: float
    conservative: float  # mu - 3 sigma
    played: int
    won: int
    points: int  # as PlayerStats.points: conceded in Duo, scored in Pizza and Classic


class RatingBoardPage(_Model):
    """One page of a server's leaderboard by rating."""

    variant: Variant
    page: int
    page_size: int
    total: int
    min_played: int
    entries: list[RatingEntry]

    @property
    def pages(self) -> int:
        """The number of pages (at least 1, so an empty board is "page 1 of 1")."""
        return max(1, -(-self.total // self.page_size))


def now_ms() -> int:
    """Return the current time as Unix epoch milliseconds."""
    return time.time_ns() // 1_000_000


def to_ms(moment: datetime) -> int:
    """Return an aware datetime as Unix epoch milliseconds."""
    if moment.tzinfo is None:
        raise ValueError("naive datetime: pass an aware one, e.g. datetime.now(UTC)")
    return round(moment.timestamp() * 1000)


def from_ms(ms: int) -> datetime:
    """Return Unix epoch milliseconds as an aware UTC datetime."""
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def json_text(value: JsonInput) -> str:
    """Return engine data as compact JSON text; a str is taken to be JSON already."""
    if isinstance(value, str):
        return value
    try:
        # orjson writes the same compact text several times faster (a snapshot is the
        # whole engine state, written with an action every few moves).
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # what it can't write (an int past 64 bits): as json would
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
