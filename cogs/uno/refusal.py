"""A refusal a command shows privately to the member who asked."""

from __future__ import annotations


class UserFacingError(Exception):
    """A refusal to show privately to the user who asked, in plain words."""
