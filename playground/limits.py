"""Discord's message, embed and component limits, answered with 50035 Invalid Form Body."""

from __future__ import annotations

from typing import Any

from .errors import ApiError, empty_message, invalid_form_body

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
ACTION_ROWS_MAX = 5
ROW_WIDTH = 5
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
SELECT_OPTION_TEXT_MAX = 100
SELECT_PLACEHOLDER_MAX = 150
MODAL_TITLE_MAX = 45

BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
SELECT_TYPES = (3, 5, 6, 7, 8)


class FormErrors:
    """Collect errors at JSON paths and render Discord's nested `errors` object."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_length(self, path: tuple[str | int, ...], value: Any, limit: int) -> None:
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def raise_if_any(self) -> None:
        if self.tree:
            raise invalid_form_body(self.tree)


def embed_length(embed: dict[str, Any]) -> int:
    """Count the characters Discord adds up towards the 6,000 total."""
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        total += len(f.get("name") or "") + len(f.get("value") or "")
    return total


def validate_message(payload: dict[str, Any], *, require_body: bool, files: int = 0) -> None:
    """Raise ApiError if a message create/edit payload breaks a Discord limit."""
    errors = FormErrors()
    errors.max_length(("content",), payload.get("content"), CONTENT_MAX)
    _check_embeds(errors, payload.get("embeds"))
    _check_components(errors, payload.get("components"))
    errors.raise_if_any()
    if require_body and not (
        payload.get("content")
        or payload.get("embeds")
        or payload.get("components")
        or payload.get("attachments")
        or files
    ):
        raise empty_message()


def _check_embeds(errors: FormErrors, embeds: list[dict[str, Any]] | None) -> None:
    if not embeds:
        return
    errors.max_length(("embeds",), embeds, EMBEDS_MAX)
    for i, embed in enumerate(embeds):
        path: tuple[str | int, ...] = ("embeds", i)
        errors.max_length((*path, "title"), embed.get("title"), EMBED_TITLE_MAX)
        errors.max_length((*path, "description"), embed.get("description"), EMBED_DESCRIPTION_MAX)
        errors.max_length(
            (*path, "footer", "text"), (embed.get("footer") or {}).get("text"), EMBED_FOOTER_MAX
        )
        errors.max_length(
            (*path, "author", "name"), (embed.get("author") or {}).get("name"), EMBED_AUTHOR_MAX
        )
        fields = embed.get("fields") or []
        errors.max_length((*path, "fields"), fields, EMBED_FIELDS_MAX)
        for j, f in enumerate(fields):
            errors.max_length((*path, "fields", j, "name"), f.get("name"), EMBED_FIELD_NAME_MAX)
            errors.max_length((*path, "fields", j, "value"), f.get("value"), EMBED_FIELD_VALUE_MAX)
    if sum(embed_length(e) for e in embeds) > EMBED_TOTAL_MAX:
        errors.add(
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}",
        )


def _check_components(errors: FormErrors, rows: list[dict[str, Any]] | None) -> None:
    if not rows:
        return
    errors.max_length(("components",), rows, ACTION_ROWS_MAX)
    seen: set[str] = set()
    for i, row in enumerate(rows):
        path: tuple[str | int, ...] = ("components", i)
        children = row.get("components") or []
        if row.get("type") != 1:
            errors.add((*path, "type"), "UNION_TYPE_CHOICES", "Value must be an action row (1).")
            continue
        if not children:
            errors.add((*path, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more.")
        width = sum(ROW_WIDTH if c.get("type") in SELECT_TYPES else 1 for c in children)
        if width > ROW_WIDTH:
            errors.add(
                (*path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for j, child in enumerate(children):
            _check_child(errors, (*path, "components", j), child, seen)


def _check_child(
    errors: FormErrors, path: tuple[str | int, ...], child: dict[str, Any], seen: set[str]
) -> None:
    custom_id = child.get("custom_id")
    if custom_id is not None:
        errors.max_length((*path, "custom_id"), custom_id, CUSTOM_ID_MAX)
        if custom_id in seen:
            errors.add(
                (*path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen.add(custom_id)
    kind = child.get("type")
    if kind == BUTTON:
        errors.max_length((*path, "label"), child.get("label"), BUTTON_LABEL_MAX)
        is_link = child.get("style") == 5
        if is_link != (custom_id is None) or (is_link and not child.get("url")):
            errors.add(
                (*path, "custom_id"),
                "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED" if not is_link else "BUTTON_LINK_URL",
                "A custom id is required (a link button takes a url instead)",
            )
    elif kind in SELECT_TYPES:
        if custom_id is None:
            errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        errors.max_length((*path, "placeholder"), child.get("placeholder"), SELECT_PLACEHOLDER_MAX)
        if kind == STRING_SELECT:
            _check_options(errors, path, child)
    else:
        errors.add(
            (*path, "type"), "UNION_TYPE_CHOICES", f"Component type {kind} not allowed here."
        )


def _check_options(errors: FormErrors, path: tuple[str | int, ...], select: dict[str, Any]) -> None:
    options = select.get("options") or []
    if not options:
        errors.add((*path, "options"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
    errors.max_length((*path, "options"), options, SELECT_OPTIONS_MAX)
    values: set[str] = set()
    for k, option in enumerate(options):
        for key in ("label", "value", "description"):
            errors.max_length((*path, "options", k, key), option.get(key), SELECT_OPTION_TEXT_MAX)
        if option.get("value") in values:
            errors.add(
                (*path, "options", k, "value"),
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Component option value cannot be duplicated",
            )
        values.add(option.get("value"))
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= low <= high <= max(len(options), 1) or high > SELECT_OPTIONS_MAX:
        errors.add((*path, "max_values"), "BASE_TYPE_BAD_VALUE", "Invalid min/max values.")


def validate_modal(data: dict[str, Any]) -> None:
    """Raise ApiError if a MODAL callback breaks Discord's modal limits."""
    errors = FormErrors()
    errors.max_length(("data", "title"), data.get("title"), MODAL_TITLE_MAX)
    errors.max_length(("data", "custom_id"), data.get("custom_id"), CUSTOM_ID_MAX)
    rows = data.get("components") or []
    if not 1 <= len(rows) <= ACTION_ROWS_MAX:
        errors.add(("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5.")
    errors.raise_if_any()


def check_raises(payload: dict[str, Any]) -> ApiError | None:
    """Return the error a message payload would get, or None (a helper for render tests)."""
    try:
        validate_message(payload, require_body=True)
    except ApiError as error:
        return error
    return None
