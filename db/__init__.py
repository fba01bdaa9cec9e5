"""The SQLite layer: the only place with SQL. See db/README.md."""

from db.database import Database
from db.errors import (
    ActionRejected,
    DatabaseError,
    InvalidResults,
    MatchNotRunning,
    MemberPlaying,
    MigrationError,
    SchemaTooNew,
    UnknownMatch,
)
from db.models import (
    FORGOTTEN_NAME,
    LeaderboardEntry,
    LeaderboardPage,
    LoggedAction,
    Match,
    MemberStats,
    PlayerResult,
    PlayerStats,
    RecentMatch,
    RoundResult,
    RunningTable,
    Seat,
)

__all__ = [
    "FORGOTTEN_NAME",
    "ActionRejected",
    "Database",
    "DatabaseError",
    "InvalidResults",
    "LeaderboardEntry",
    "LeaderboardPage",
    "LoggedAction",
    "Match",
    "MatchNotRunning",
    "MemberPlaying",
    "MemberStats",
    "MigrationError",
    "PlayerResult",
    "PlayerStats",
    "RecentMatch",
    "RoundResult",
    "RunningTable",
    "SchemaTooNew",
    "Seat",
    "UnknownMatch",
]
