"""The application's own emojis (Discord's `/applications/{id}/emojis` routes) and the
images the CDN serves for them, with Discord's rules: a name of 2-32 characters of
[A-Za-z0-9_] unique in the application, an image as a base64 data URI of at most
256 KiB, at most 2,000 emojis."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import errors
from .errors import ApiError
from .limits import FormErrors
from .models import User

NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
DATA_URI = re.compile(r"data:(image/(?:png|jpeg|gif|webp));base64,(.*)", re.DOTALL)
MAX_IMAGE_BYTES = 256 * 1024
LIMIT = 2000  # an application's emojis
_MAGIC = {"image/png": b"\x89PNG", "image/jpeg": b"\xff\xd8", "image/gif": b"GIF8"}


@dataclass(eq=False)
class AppEmoji:
    id: int
    name: str
    image: bytes
    content_type: str
    user: User

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "user": self.user.payload(),
            "require_colons": True,
            "managed": False,
            "animated": self.content_type == "image/gif",
            "available": True,
        }


def _form_error(field: str, code: str, message: str) -> ApiError:
    return errors.invalid_form_body({field: {"_errors": [{"code": code, "message": message}]}})


def unknown_emoji() -> ApiError:
    return ApiError(404, 10014, "Unknown Emoji", kind="unknown_emoji")


class AppEmojis:
    """One application's emojis by id; `refused` makes every emoji route answer 403."""

    def __init__(self, application_id: int, owner: User, new_id: Callable[[], int]) -> None:
        self.application_id = application_id
        self.owner = owner
        self._new_id = new_id
        self.by_id: dict[int, AppEmoji] = {}
        self.refused = False  # a knob for tests: the bot is denied its emojis
        self.limit = LIMIT

    def _check(self, application_id: int) -> None:
        if self.refused:
            raise ApiError(403, 50001, "Missing Access", kind="emoji_refused")
        if application_id != self.application_id:
            raise ApiError(404, 10002, "Unknown Application", kind="unknown_application")

    def names(self) -> list[str]:
        return [e.name for e in self.by_id.values()]

    def listed(self, application_id: int) -> list[AppEmoji]:
        self._check(application_id)
        return list(self.by_id.values())

    def get(self, application_id: int, emoji_id: int) -> AppEmoji:
        self._check(application_id)
        emoji = self.by_id.get(emoji_id)
        if emoji is None:
            raise unknown_emoji()
        return emoji

    def create(self, application_id: int, body: dict[str, Any]) -> AppEmoji:
        self._check(application_id)
        name = self._valid_name(body.get("name"))
        content_type, image = _decode_image(body.get("image"))
        if len(self.by_id) >= self.limit:
            raise ApiError(
                400, 30008, f"Maximum number of emojis reached ({self.limit})", kind="emoji_limit"
            )
        emoji = AppEmoji(self._new_id(), name, image, content_type, self.owner)
        self.by_id[emoji.id] = emoji
        return emoji

    def edit(self, application_id: int, emoji_id: int, body: dict[str, Any]) -> AppEmoji:
        emoji = self.get(application_id, emoji_id)
        if "name" in body:
            emoji.name = self._valid_name(body["name"], renaming=emoji)
        return emoji

    def delete(self, application_id: int, emoji_id: int) -> None:
        self.by_id.pop(self.get(application_id, emoji_id).id)

    def image(self, emoji_id: int) -> AppEmoji | None:
        """The emoji behind a CDN address (served whether or not routes are refused)."""
        return self.by_id.get(emoji_id)

    def check_components(self, rows: list[dict[str, Any]] | None) -> None:
        """Refuse a button or select option showing a custom emoji the bot cannot use.

        Only the application's own emojis are usable here (guild emojis are not modelled):
        a deleted or made-up id is Discord's 400 "Invalid emoji".
        """
        invalid = FormErrors()
        for i, row in enumerate(rows or []):
            for j, child in enumerate(row.get("components") or []):
                path: tuple[str | int, ...] = ("components", i, "components", j)
                self._check_emoji(invalid, path, child.get("emoji"))
                for k, option in enumerate(child.get("options") or []):
                    self._check_emoji(invalid, (*path, "options", k), option.get("emoji"))
        invalid.raise_if_any()

    def _check_emoji(
        self, invalid: FormErrors, path: tuple[str | int, ...], emoji: dict[str, Any] | None
    ) -> None:
        emoji_id = (emoji or {}).get("id")
        if emoji_id is not None and int(emoji_id) not in self.by_id:
            invalid.add((*path, "emoji", "id"), "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji")

    def _valid_name(self, name: object, *, renaming: AppEmoji | None = None) -> str:
        if not isinstance(name, str) or not 2 <= len(name) <= 32:
            raise _form_error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length.")
        if not NAME.fullmatch(name):
            raise _form_error(
                "name", "STRING_TYPE_REGEX", "String value did not match validation regex."
            )
        if any(e.name == name and e is not renaming for e in self.by_id.values()):
            raise _form_error(
                "name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken."
            )
        return name


def _decode_image(data: object) -> tuple[str, bytes]:
    """Return (content type, bytes) of a `data:image/...;base64,` URI, or Discord's 400."""
    match = DATA_URI.fullmatch(data) if isinstance(data, str) else None
    if match is None:
        raise _form_error("image", "IMAGE_INVALID", "Invalid image data")
    try:
        image = base64.b64decode(match.group(2), validate=True)
    except binascii.Error:
        raise _form_error("image", "IMAGE_INVALID", "Invalid image data") from None
    content_type = match.group(1)
    magic = _MAGIC.get(content_type)
    if not image or (magic is not None and not image.startswith(magic)):
        raise _form_error("image", "IMAGE_INVALID", "Invalid image data")
    if len(image) > MAX_IMAGE_BYTES:
        raise _form_error("image", "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
    return content_type, image
