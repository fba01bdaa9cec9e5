"""The custom_id codec: every component the bot draws names what it was drawn for.

Table controls: `uno:{table_id}:{version}:{code}`, where `code` is a compact
engine action (`p.R5`, `c.G`, `tv`, ...) or a table code (`hand`, `uno`,
`sel`, `pg.2`, `kr` Keep the rest, `o.R5` / `o.-` a dump's order card by card).
Lobby buttons: `uno:lobby:{lobby_id}:{version}:{code}` (`join`,
`leave`, `start`, `cancel`, `accept`, `decline`): a lobby id is never reused,
even across restarts. The leaderboard pagers: `uno:lb.{variant}.{page}` (by
wins) and `uno:rb.{variant}.{page}` (by skill rating), pages 1 to MAX_PAGE. The
settings panel: `uno:set.{code}`. Versionless buttons under answers: `uno:share`
(Share a private board page), `uno:share.of.{user_id}` (Share a member's record),
`uno:rules.{variant}` (the rules' Details), `uno:rematch.{table_id}` (a finished
table's Rematch).

Each family has one template (`TABLE_TEMPLATE`, `LOBBY_TEMPLATE`,
`LEADERBOARD_TEMPLATE`); `parse_custom_id` matches it once and keeps what it
matched, the engine action included, so nothing downstream parses again.
Codes never contain `:` (card notation has none), so the ids split cleanly.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from engine.actions import (
    Accept,
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Dump,
    Give,
    JumpIn,
    KeepCard,
    KeepDrawn,
    NoDump,
    Play,
    RejectCard,
    SwapHands,
    TakeVolley,
)
from engine.cards import Card, Colour

PREFIX: Final = "uno"
MAX_CUSTOM_ID: Final = 100  # Discord's limit for a component's custom_id

TABLE_TEMPLATE: Final = r"uno:(?P<table>\d+):(?P<version>\d+):(?P<code>[^:]+)"
LEADERBOARD_TEMPLATE: Final = r"uno:lb\.(?P<variant>[a-z]+)\.(?P<page>\d+)"
RULES_TEMPLATE: Final = r"uno:rules\.(?P<variant>[a-z]+)"
RATING_TEMPLATE: Final = r"uno:rb\.(?P<variant>[a-z]+)\.(?P<page>\d+)"
SETTINGS_TEMPLATE: Final = r"uno:set\.(?P<code>[a-z]+)"
LOBBY_TEMPLATE: Final = r"uno:lobby:(?P<lobby>\d+):(?P<version>\d+):(?P<code>[a-z]+)"

# Table codes that are not engine actions.
HAND: Final = "hand"  # open the hand panel
UNO: Final = "uno"  # the table's UNO! button: the handler decides call or catch
PICK: Final = "sel"  # a select whose chosen value is an action code
PAGE: Final = "pg"  # `pg.{n}`: show page n of an overflowing hand panel
# The settings panel's controls (`uno:set.{code}`), and its modal's.
SETTINGS_CODES: Final = frozenset(
    {"deck", "challenge", "house", "table", "numbers", "reset", "form"}
)
LOBBY_CODES: Final = frozenset(
    {"join", "leave", "start", "cancel", "accept", "decline", "computer", "addcpu", "strength"}
)
KEEP_REST: Final = "kr"  # Duo draft: keep this card and every later one (KeepCard each)
TABLE_CODES: Final = frozenset({HAND, UNO, PICK, KEEP_REST})
# Table controls drawn without a meaningful version (the table message's buttons
# never go stale); they carry ANY_VERSION and handlers must not compare it.
VERSIONLESS_CODES: Final = frozenset({HAND, UNO})
ANY_VERSION: Final = 0

_MAX_INT_DIGITS = 19  # SQLite rowids and match versions fit in a signed 64-bit int
# Leaderboard pages: a million members at 10 a page, far below where SQLite's
# OFFSET (an int64) would overflow on a hand-made id.
MAX_PAGE: Final = 100_000

_SIMPLE: Final[dict[str, Action]] = {
    "d": Draw(),
    "kd": KeepDrawn(),
    "tv": TakeVolley(),
    "ch": Challenge(),
    "ac": Accept(),
    "nd": NoDump(),
    "kc": KeepCard(),
    "rc": RejectCard(),
    "cu": CallUno(),
    "cc": CatchUno(),
}
_SIMPLE_CODES: Final[dict[type[Action], str]] = {type(a): c for c, a in _SIMPLE.items()}

_TABLE_RE = re.compile(TABLE_TEMPLATE)
_LEADERBOARD_RE = re.compile(LEADERBOARD_TEMPLATE)
_RATING_RE = re.compile(RATING_TEMPLATE)
_SETTINGS_RE = re.compile(SETTINGS_TEMPLATE)
_LOBBY_RE = re.compile(LOBBY_TEMPLATE)
_RULES_RE = re.compile(RULES_TEMPLATE)
_REMATCH_RE = re.compile(r"uno:rematch\.(?P<table>\d+)")
_SELECT_RE = re.compile(r"sel(?:\.\d{1,2})?")
_PAGE_RE = re.compile(r"pg\.\d{1,3}")
# `o.{card}`: lay this card next in a colour dump chosen card by card; `o.-`: start over.
ORDER_RESTART: Final = "o.-"
_PLAYER_RE = re.compile(r"\d{1,20}")  # a member's id, or a computer seat's 1-9 (H2's swap)
_ORDER_RE = re.compile(r"o\.(?:-|[A-Z0-9+]{1,6})")


def order_card(code: str) -> Card | None:
    """The card an `o.{card}` code names; None for `o.-` or anything else."""
    if _ORDER_RE.fullmatch(code) is None or code == ORDER_RESTART:
        return None
    try:
        return Card.parse(code[2:])
    except ValueError:
        return None


def encode_action(action: Action) -> str:
    """The compact code of an engine action: `p.R5`, `pu.W+4`, `c.G`, `tv`."""
    if isinstance(action, Play):
        return ("pu." if action.uno else "p.") + action.card.code
    if isinstance(action, Dump):
        return ("duu." if action.uno else "du.") + action.last.code
    if isinstance(action, Give):
        return "g." + action.card.code
    if isinstance(action, ChooseColour):
        return "c." + action.colour.value
    if isinstance(action, JumpIn):  # H3
        return ("ju." if action.uno else "j.") + action.card.code
    if isinstance(action, SwapHands) and _PLAYER_RE.fullmatch(action.target):  # H2
        return "sw." + action.target
    try:
        return _SIMPLE_CODES[type(action)]
    except KeyError:
        raise ValueError(f"not an engine action: {action!r}") from None


_CARD_KINDS: Final[dict[str, Callable[[Card], Action]]] = {
    "p": Play,
    "pu": lambda card: Play(card, uno=True),
    "du": Dump,
    "duu": lambda card: Dump(card, uno=True),
    "g": Give,
    "j": JumpIn,  # H3
    "ju": lambda card: JumpIn(card, uno=True),
}


def decode_action(code: str) -> Action:
    """The engine action a code stands for; ValueError if it stands for none."""
    if not isinstance(code, str):
        raise ValueError(f"not an action code: {code!r}")
    if code in _SIMPLE:
        return _SIMPLE[code]
    kind, dot, arg = code.partition(".")
    if not dot:
        raise ValueError(f"not an action code: {code!r}")
    if kind == "c":
        try:
            return ChooseColour(Colour(arg))
        except ValueError:
            raise ValueError(f"not a colour: {code!r}") from None
    if kind == "sw":
        if _PLAYER_RE.fullmatch(arg) is None:
            raise ValueError(f"not a player: {code!r}")
        return SwapHands(arg)
    make = _CARD_KINDS.get(kind)
    if make is None:
        raise ValueError(f"not an action code: {code!r}")
    return make(Card.parse(arg))  # ValueError for an unknown card


def is_action_code(code: str) -> bool:
    try:
        decode_action(code)
    except ValueError:
        return False
    return True


def select_code(index: int = 0) -> str:
    """The code of the `index`-th select of a panel (custom_ids must be unique)."""
    return PICK if index == 0 else f"{PICK}.{index}"


def page_code(page: int) -> str:
    return f"{PAGE}.{page}"


@lru_cache(maxsize=4096)  # a few hundred codes recur on every panel drawn
def is_known_code(code: str) -> bool:
    """Whether `code` may follow a table id: an action, a table code, a select or a page."""
    return (
        code in TABLE_CODES
        or _SELECT_RE.fullmatch(code) is not None
        or _PAGE_RE.fullmatch(code) is not None
        or code == ORDER_RESTART
        or order_card(code) is not None
        or is_action_code(code)
    )


def table_custom_id(table_id: int, version: int, code: str) -> str:
    """`uno:{table_id}:{version}:{code}`; ValueError for an id Discord or we would refuse."""
    if table_id < 0 or version < 0:
        raise ValueError("table id and version must not be negative")
    if not is_known_code(code):
        raise ValueError(f"unknown control code {code!r}")
    if len(str(table_id)) > _MAX_INT_DIGITS or len(str(version)) > _MAX_INT_DIGITS:
        raise ValueError(f"table id or version too large: {table_id}, {version}")
    return f"{PREFIX}:{table_id}:{version}:{code}"  # at most 4 + 2 * 20 + 9 characters


def leaderboard_custom_id(variant: str, page: int) -> str:
    """`uno:lb.{variant}.{page}`: the pager has no table and no version; pages 1..MAX_PAGE."""
    custom_id = f"{PREFIX}:lb.{variant}.{page}"
    if (
        not 1 <= page <= MAX_PAGE
        or _LEADERBOARD_RE.fullmatch(custom_id) is None
        or len(custom_id) > MAX_CUSTOM_ID
    ):
        raise ValueError(f"bad leaderboard page {variant!r} {page!r}")
    return custom_id


def rules_custom_id(variant: str) -> str:
    """`uno:rules.{variant}`: the rules guide's Details button."""
    custom_id = f"{PREFIX}:rules.{variant}"
    if _RULES_RE.fullmatch(custom_id) is None:
        raise ValueError(f"bad variant {variant!r}")
    return custom_id


SHARE_ID: Final = f"{PREFIX}:share"  # post a private record in the channel
_SHARE_RE = re.compile(
    r"uno:share(?:\.(?P<variant>[a-z]+)\.(?P<page>\d{1,6})|\.of\.(?P<member>\d{1,19}))?"
)


def share_custom_id(variant: str | None = None, page: int = 1, *, member: int | None = None) -> str:
    """`uno:share` (a board page), `uno:share.{variant}.{page}` (a leaderboard page) or
    `uno:share.of.{member}` (a member's record, drawn again for the channel)."""
    if member is not None:
        custom_id = f"{SHARE_ID}.of.{member}"
    else:
        custom_id = SHARE_ID if variant is None else f"{SHARE_ID}.{variant}.{page}"
    if _SHARE_RE.fullmatch(custom_id) is None or not 1 <= page <= MAX_PAGE:
        raise ValueError(f"bad share {variant!r} {page!r} {member!r}")
    return custom_id


def rematch_custom_id(table_id: int) -> str:
    """`uno:rematch.{table_id}`: the finished table's Rematch button."""
    if not table_id >= 0 or len(str(table_id)) > _MAX_INT_DIGITS:
        raise ValueError(f"bad table id {table_id!r}")
    return f"{PREFIX}:rematch.{table_id}"


def rating_custom_id(variant: str, page: int) -> str:
    """`uno:rb.{variant}.{page}`: the pager of the board by skill rating."""
    custom_id = f"{PREFIX}:rb.{variant}.{page}"
    if not 1 <= page <= MAX_PAGE or _RATING_RE.fullmatch(custom_id) is None:
        raise ValueError(f"bad rating board page {variant!r} {page!r}")
    return custom_id


def settings_custom_id(code: str) -> str:
    """`uno:set.{code}`: a control of the settings panel (it carries no server: the
    server is the one the click comes from, and every click checks Manage Server)."""
    if code not in SETTINGS_CODES:
        raise ValueError(f"unknown settings code {code!r}")
    return f"{PREFIX}:set.{code}"


def lobby_custom_id(lobby_id: int, version: int, code: str) -> str:
    """`uno:lobby:{lobby_id}:{version}:{code}`; ValueError for an id we would refuse."""
    if code not in LOBBY_CODES:
        raise ValueError(f"unknown lobby code {code!r}")
    if not (lobby_id >= 0 and version >= 0) or max(len(str(lobby_id)), len(str(version))) > 19:
        raise ValueError(f"bad lobby id or version: {lobby_id}, {version}")
    return f"{PREFIX}:lobby:{lobby_id}:{version}:{code}"


@dataclass(frozen=True, slots=True)
class TableControl:
    """A parsed table control: which table, which version, which code.

    What the code means (its engine action, select or page) is worked out once,
    when the id is parsed.
    """

    table_id: int
    version: int
    code: str
    action: Action | None = field(init=False, compare=False, repr=False)
    is_select: bool = field(init=False, compare=False, repr=False)
    page: int | None = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        try:
            action: Action | None = decode_action(self.code)
        except ValueError:
            action = None  # a table code (`hand`, `sel`, `pg.2`, ...)
        paged = _PAGE_RE.fullmatch(self.code) is not None
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "is_select", _SELECT_RE.fullmatch(self.code) is not None)
        object.__setattr__(self, "page", int(self.code.partition(".")[2]) if paged else None)

    @property
    def versionless(self) -> bool:
        """True for controls whose version must not be compared (never stale)."""
        return self.code in VERSIONLESS_CODES


@dataclass(frozen=True, slots=True)
class LobbyControl:
    """A parsed lobby button: which lobby, which of its versions, which code."""

    lobby_id: int
    version: int
    code: str


@dataclass(frozen=True, slots=True)
class LeaderboardControl:
    variant: str
    page: int
    by_rating: bool = False


@dataclass(frozen=True, slots=True)
class RulesDetails:
    variant: str


@dataclass(frozen=True, slots=True)
class Share:
    """The Share button under a private leaderboard page (its variant and page) or a
    member's record (`member`, whose record it is)."""

    variant: str | None = None
    page: int = 1
    member: int | None = None


@dataclass(frozen=True, slots=True)
class Rematch:
    table_id: int


@dataclass(frozen=True, slots=True)
class SettingsControl:
    """A control of the settings panel, or its modal: which one."""

    code: str


ParsedId = (
    TableControl
    | LobbyControl
    | LeaderboardControl
    | SettingsControl
    | RulesDetails
    | Share
    | Rematch
)


def parse_custom_id(custom_id: object) -> ParsedId | None:
    """Parse one of our custom_ids; None for anything malformed or not ours. Never raises."""
    if not isinstance(custom_id, str) or len(custom_id) > MAX_CUSTOM_ID:
        return None
    return _parse(custom_id)


@lru_cache(maxsize=1024)  # a click's id is parsed as it arrives (bot.py) and when routed
def _parse(custom_id: str) -> ParsedId | None:
    """What `parse_custom_id` finds (immutable: the same answer serves every caller)."""
    for pattern, by_rating in ((_LEADERBOARD_RE, False), (_RATING_RE, True)):
        board = pattern.fullmatch(custom_id)
        if board is not None:
            return _board_page(board, by_rating=by_rating)
    chosen = _SETTINGS_RE.fullmatch(custom_id)
    if chosen is not None:
        code = chosen["code"]
        return SettingsControl(code) if code in SETTINGS_CODES else None
    if custom_id.startswith(("uno:share", "uno:rules.", "uno:rematch.")):
        return _answer_control(custom_id)
    lobby = _LOBBY_RE.fullmatch(custom_id)
    if lobby is not None:
        return _lobby_control(lobby)
    found = _TABLE_RE.fullmatch(custom_id)
    if found is None:
        return None
    table, version, code = found["table"], found["version"], found["code"]
    # `\d` also matches non-ASCII digits; ours are ASCII only.
    if not (table.isascii() and version.isascii()):
        return None
    if len(table) > _MAX_INT_DIGITS or len(version) > _MAX_INT_DIGITS:
        return None
    if not is_known_code(code):
        return None
    return TableControl(table_id=int(table), version=int(version), code=code)


def _answer_control(custom_id: str) -> Share | RulesDetails | Rematch | None:
    """A button without a version: Share, the rules' Details, a finished table's Rematch."""
    rematch = _REMATCH_RE.fullmatch(custom_id)
    if rematch is not None:
        digits = rematch["table"]
        ok = digits.isascii() and len(digits) <= _MAX_INT_DIGITS
        return Rematch(int(digits)) if ok else None
    rules = _RULES_RE.fullmatch(custom_id)
    if rules is not None:
        return RulesDetails(variant=rules["variant"])
    share = _SHARE_RE.fullmatch(custom_id)
    if share is None:
        return None
    if share["member"] is not None:
        digits = share["member"]
        return Share(member=int(digits)) if digits.isascii() else None
    if share["variant"] is None:
        return Share()
    page = int(share["page"]) if share["page"].isascii() else 0
    return Share(share["variant"], page) if 1 <= page <= MAX_PAGE else None


def _board_page(board: re.Match[str], *, by_rating: bool) -> LeaderboardControl | None:
    page = board["page"]
    if not page.isascii() or len(page) > len(str(MAX_PAGE)):
        return None
    if not 1 <= int(page) <= MAX_PAGE:
        return None
    return LeaderboardControl(variant=board["variant"], page=int(page), by_rating=by_rating)


def _lobby_control(found: re.Match[str]) -> LobbyControl | None:
    lobby, version, code = found["lobby"], found["version"], found["code"]
    if not (lobby.isascii() and version.isascii()) or code not in LOBBY_CODES:
        return None
    if len(lobby) > _MAX_INT_DIGITS or len(version) > _MAX_INT_DIGITS:
        return None
    return LobbyControl(lobby_id=int(lobby), version=int(version), code=code)
