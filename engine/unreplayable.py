"""The refusal to replay a log that today's rules no longer accept."""

from __future__ import annotations


class Unreplayable(ValueError):
    """The log does not replay under today's rules (engine/replay.py)."""
