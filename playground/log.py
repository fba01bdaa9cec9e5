"""What happened, for tests to read: REST calls, rule violations, failed interactions."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class RestCall:
    method: str
    route: str  # the route template, e.g. "PATCH /channels/{channel_id}/messages/{message_id}"
    path: str
    status: int
    at: float
    code: int | None = None  # Discord's JSON error code on an error answer


@dataclass(frozen=True)
class Violation:
    kind: str  # e.g. "late_response", "already_acknowledged", "invalid_form_body", "rate_limited"
    detail: str
    at: float


@dataclass(frozen=True)
class FailedInteraction:
    """The user saw "This interaction failed": no answer within 3 seconds."""

    interaction_id: int
    name: str
    user: str
    at: float


@dataclass
class Log:
    calls: list[RestCall] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    failed: list[FailedInteraction] = field(default_factory=list)

    def kinds(self) -> list[str]:
        return [v.kind for v in self.violations]

    def of_kind(self, kind: str) -> list[Violation]:
        return [v for v in self.violations if v.kind == kind]

    def calls_to(self, route: str) -> list[RestCall]:
        """Return calls whose route template contains `route`, e.g. "POST /channels"."""
        return [c for c in self.calls if route in f"{c.method} {c.route}"]

    def clear(self) -> None:
        self.calls.clear()
        self.violations.clear()
        self.failed.clear()
