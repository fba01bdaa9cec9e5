"""The custom_ids of history pages and replay panels, and their parser.

`uno:hi.{member}.{variant}.{page}` a history page (variant `all` for every game),
`uno:hs.{member}.{variant}.{page}` its Share button, `uno:hr` the select of a
page's matches to replay (its values are match ids), `uno:rp.{match}.{step}.{tag}`
a replay panel's step button (the tag keeps two buttons to one step apart: `f`
first, `p` previous, `n` next, `l` last, `o` open from a match summary), and
`uno:rr.{match}` its round select (values: the first step of each round).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

PREFIXES: Final = ("uno:hi.", "uno:hs.", "uno:hr", "uno:rp.", "uno:rr.")
ALL: Final = "all"
MAX_PAGE: Final = 100_000
Kind = Literal["page", "share", "pick", "step", "round"]

_PAGE_RE = re.compile(
    r"uno:(?P<kind>hi|hs)\.(?P<member>\d{1,19})\.(?P<variant>[a-z]+)\.(?P<page>\d{1,6})"
)
_STEP_RE = re.compile(r"uno:rp\.(?P<match>\d{1,19})\.(?P<step>\d{1,7})\.(?P<tag>[fpnlo])")
_ROUND_RE = re.compile(r"uno:rr\.(?P<match>\d{1,19})")
PICK_ID: Final = "uno:hr"
VARIANTS: Final = ("duo", "pizza", "classic", ALL)


@dataclass(frozen=True, slots=True)
class HistoryClick:
    """A parsed history or replay control: what it shows (its other fields are 0)."""

    kind: Kind
    member: int = 0
    variant: str = ALL
    page: int = 1
    match_id: int = 0
    step: int = 0
    tag: str = ""


def is_history_id(custom_id: str) -> bool:
    return custom_id.startswith(PREFIXES)


def page_id(member: int, variant: str | None, page: int, *, share: bool = False) -> str:
    kind = "hs" if share else "hi"
    return f"uno:{kind}.{member}.{variant or ALL}.{min(max(page, 1), MAX_PAGE)}"


def step_id(match_id: int, step: int, tag: str) -> str:
    return f"uno:rp.{match_id}.{max(step, 0)}.{tag}"


def round_id(match_id: int) -> str:
    return f"uno:rr.{match_id}"


def parse(custom_id: str) -> HistoryClick | None:
    """The control a custom_id names; None for anything malformed. Never raises."""
    if not custom_id.isascii() or len(custom_id) > 100:
        return None
    if custom_id == PICK_ID:
        return HistoryClick("pick")
    if found := _PAGE_RE.fullmatch(custom_id):
        if found["variant"] not in VARIANTS or not 1 <= int(found["page"]) <= MAX_PAGE:
            return None
        kind: Kind = "share" if found["kind"] == "hs" else "page"
        return HistoryClick(
            kind, member=int(found["member"]), variant=found["variant"], page=int(found["page"])
        )
    if found := _STEP_RE.fullmatch(custom_id):
        return HistoryClick(
            "step", match_id=int(found["match"]), step=int(found["step"]), tag=found["tag"]
        )
    if found := _ROUND_RE.fullmatch(custom_id):
        return HistoryClick("round", match_id=int(found["match"]))
    return None
