"""Discord's error answers, raised by the model and turned into HTTP by `rest.py`."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error answer: HTTP status, Discord JSON error code, message and optional details.

    `code` None: a body without one, as Discord's rate-limit answers are."""

    def __init__(
        self,
        status: int,
        code: int | None,
        message: str,
        *,
        kind: str,
        errors: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.kind = kind  # the violation kind recorded in the log
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message}
        if self.code is not None:
            body["code"] = self.code
        if self.errors is not None:
            body["errors"] = self.errors
        body.update(self.extra)
        return body


def unknown_interaction() -> ApiError:
    return ApiError(404, 10062, "Unknown interaction", kind="unknown_interaction")


def already_acknowledged() -> ApiError:
    return ApiError(
        400, 40060, "Interaction has already been acknowledged.", kind="already_acknowledged"
    )


def invalid_webhook_token(kind: str = "invalid_webhook_token") -> ApiError:
    return ApiError(401, 50027, "Invalid Webhook Token", kind=kind)


def unknown_webhook(kind: str = "unknown_webhook") -> ApiError:
    return ApiError(404, 10015, "Unknown Webhook", kind=kind)


def unknown_message(kind: str = "unknown_message") -> ApiError:
    return ApiError(404, 10008, "Unknown Message", kind=kind)


def unknown_channel() -> ApiError:
    return ApiError(404, 10003, "Unknown Channel", kind="unknown_channel")


def missing_permissions() -> ApiError:
    return ApiError(403, 50013, "Missing Permissions", kind="missing_permissions")


def cannot_edit_others() -> ApiError:
    return ApiError(
        403, 50005, "Cannot edit a message authored by another user", kind="edit_other_author"
    )


def empty_message() -> ApiError:
    return ApiError(400, 50006, "Cannot send an empty message", kind="empty_message")


def invalid_form_body(errors: dict[str, Any]) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body", kind="invalid_form_body", errors=errors)


def wrong_channel_type() -> ApiError:
    return ApiError(
        400, 50024, "Cannot execute action on this channel type", kind="wrong_channel_type"
    )


def thread_exists() -> ApiError:
    return ApiError(
        400, 160004, "A thread has already been created for this message", kind="thread_exists"
    )
