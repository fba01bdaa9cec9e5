"""The answers and panel edits of clicks, sent straight through the client's HTTP session.

discord.py's webhook adapter, on every call, builds a route, takes a lock per token,
encodes the JSON to text, and decodes Discord's whole answer (for a panel edit, the
edited message) into Python objects nobody reads; for an interaction's answer it also
asks Discord to send the new message back. Under load that was a sizable share of the
bot's CPU per click. Here the usual case, a 2xx, costs one request: the JSON encoded
once to bytes, the answer read and dropped. Anything else falls back to discord.py:
a 429 or a server error is sent again through its adapter (`again`), which waits and
retries as Discord asks, and a refusal raises discord.py's own exception, so callers
catch the same errors as before.

Two calls on one token are not ordered by a lock here: a panel's edits come one after
another from its table's worker, and each click is answered through its own token.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
import orjson
from discord.http import Route, json_or_text

_JSON = {"Content-Type": "application/json"}
TOO_MANY, SERVER_ERROR = 429, 500


async def send_json(
    session: aiohttp.ClientSession,
    method: str,
    path: str,
    payload: dict[str, Any],
    *,
    http: discord.http.HTTPClient,
    again: Callable[[], Awaitable[Any]],
) -> None:
    """`method` `path` (under the API's base) with `payload`; raise as discord.py would."""
    async with session.request(
        method,
        Route.BASE + path,
        data=orjson.dumps(payload),
        headers=_JSON,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
    ) as response:
        status = response.status
        if 200 <= status < 300:
            await response.read()  # read to its end, so the connection is reused
            return
        retry = status == TOO_MANY or status >= SERVER_ERROR
        data = None if retry else await json_or_text(response)
    if data is None:
        await again()
        return
    raise _refusal(response, data)


def _refusal(response: aiohttp.ClientResponse, data: str | dict[str, Any]) -> Exception:
    if response.status == 404:
        return discord.NotFound(response, data)
    if response.status == 403:
        return discord.Forbidden(response, data)
    return discord.HTTPException(response, data)
