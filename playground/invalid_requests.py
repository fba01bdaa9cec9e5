"""Discord's invalid-request limit: too many 401, 403 and 429 answers get a temporary ban."""

from __future__ import annotations

from collections import deque

from .clock import Clock

INVALID_STATUSES = (401, 403, 429)

# Cloudflare's answer to a banned client: an HTML page, without Discord's `Via` header or
# rate-limit headers (discord.py reads exactly that as a ban and stops retrying).
BAN_PAGE = (
    "<!DOCTYPE html><html><head><title>Error 1015</title></head><body><h1>Error 1015</h1>"
    "<p>You are being rate limited: this client is banned from the API for a while.</p>"
    "</body></html>"
)


class InvalidRequests:
    """Count each requester's invalid answers over a sliding window; ban at the limit.

    An invalid answer is a 401, a 403 or a 429, except a 429 whose scope is `shared` (a
    resource's limit, which Discord does not hold against the requester). Discord counts
    per address and says "temporarily"; the emulator counts per requester (see
    `rest.py`: the bot token, else the address) and bans for `ban_seconds`. The limits are
    attributes so a test can reach them quickly.
    """

    def __init__(
        self,
        clock: Clock,
        *,
        limit: int = 10_000,
        per: float = 600.0,
        ban_seconds: float = 3600.0,
    ) -> None:
        self.clock = clock
        self.limit = limit
        self.per = per
        self.ban_seconds = ban_seconds
        self._answers: dict[str, deque[float]] = {}
        self._banned_until: dict[str, float] = {}

    @staticmethod
    def invalid(status: int, scope: str | None) -> bool:
        return status in INVALID_STATUSES and not (status == 429 and scope == "shared")

    def note(self, requester: str, status: int, scope: str | None) -> bool:
        """Count one answer; return True if it starts a ban."""
        if not self.invalid(status, scope):
            return False
        now = self.clock.now()
        answers = self._answers.setdefault(requester, deque())
        answers.append(now)
        while answers[0] <= now - self.per:
            answers.popleft()
        if len(answers) < self.limit:
            return False
        answers.clear()
        self._banned_until[requester] = now + self.ban_seconds
        return True

    def count(self, requester: str) -> int:
        """The requester's invalid answers within the window."""
        now = self.clock.now()
        return sum(1 for at in self._answers.get(requester, ()) if at > now - self.per)

    def banned_for(self, requester: str) -> float:
        """Seconds left of the requester's ban (0: not banned)."""
        until = self._banned_until.get(requester)
        if until is None:
            return 0.0
        left = until - self.clock.now()
        if left <= 0:
            del self._banned_until[requester]
            return 0.0
        return left
