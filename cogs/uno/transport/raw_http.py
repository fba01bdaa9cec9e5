"""The answers, panel edits and table message edits of clicks, sent straight.

discord.py's webhook adapter builds a route, takes a lock per token and decodes
Discord's whole answer on every call; here a 2xx costs one request: the JSON encoded
once, written on a kept-alive connection of `HttpPool`, the answer read and dropped
(docs/benchmarks.md has what that saved). Through a proxy, the client's aiohttp session
sends it. A click's answer meeting a 429 or a server error is sent again through
discord.py's adapter (`again`), which waits and retries as Discord asks; a table edit
honours the rate-limit headers itself (`edit_message`); a refusal raises discord.py's
own exception.

No lock orders two calls on one token: a panel's edits come one after another from its
table's worker, and each click is answered through its own token.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import aiohttp
import discord
import orjson
from discord.http import MultipartParameters, Route, json_or_text

from cogs.uno.transport.buckets import RouteBuckets
from cogs.uno.transport.budget import budget, global_limit_met
from cogs.uno.transport.http_pool import Answer, HttpPool, origin

_JSON = {"Content-Type": "application/json"}
TOO_MANY, SERVER_ERROR = 429, 500
CONNECTIONS = 32  # as many as the client's own pool (bot.py)
TRIES = 4  # a table edit's sends at most, 429s included: then it is asked again later
EDIT_ROUTE = "PATCH /channels/{channel_id}/messages/{message_id}"  # as discord.py keys it


# Off (the FAST_PATHS setting): every request goes through discord.py's own adapter.
_fast = True


def use_pool(on: bool) -> None:
    """Send through the kept-alive connections (`on`), or through discord.py only."""
    global _fast
    _fast = on


_POOLS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, HttpPool] = weakref.WeakKeyDictionary()


def pool() -> HttpPool:
    """The running loop's connections (the bot has one loop; the tests, one per test)."""
    loop = asyncio.get_running_loop()
    found = _POOLS.get(loop)
    if found is None:
        found = _POOLS[loop] = HttpPool(limit=CONNECTIONS)
    return found


_BUCKETS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RouteBuckets] = (
    weakref.WeakKeyDictionary()
)


def buckets() -> RouteBuckets:
    """The running loop's rate-limit buckets (one bot per loop)."""
    loop = asyncio.get_running_loop()
    found = _BUCKETS.get(loop)
    if found is None:
        found = _BUCKETS[loop] = RouteBuckets()
    return found


def close_connections() -> None:
    """Close the running loop's idle connections (the bot is closing)."""
    found = _POOLS.pop(asyncio.get_running_loop(), None)
    if found is not None:
        found.close()


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
    if not _fast:
        await again()
        return
    body = orjson.dumps(payload)
    if http.proxy is not None:  # through the proxy the client was given
        await _through_session(session, method, path, body, http=http, again=again)
        return
    await _through_pool(method, path, body, http=http, again=again)


async def edit_message(
    client: discord.Client, channel_id: int, message_id: int, payload: dict[str, Any]
) -> None:
    """Edit a channel message of the bot's (the table message), raising as discord.py would.

    Under load each table edit through discord.py cost several times a click's answer
    (its request machinery, and the edited message decoded from Discord's answer). Here
    it takes its slot from the request budget, waits when its bucket has no request left
    and, on a 429, waits as asked and goes again, a few times at most; then raises
    discord.RateLimited (the caller asks again later).
    """
    http = client.http
    params = MultipartParameters(payload=payload, multipart=None, files=None)

    def again() -> Awaitable[Any]:
        return http.edit_message(channel_id, message_id, params=params)

    if not _fast or http.token is None or http.proxy is not None:  # or not logged in, a proxy
        await again()
        return
    path = f"/channels/{channel_id}/messages/{message_id}"
    body = orjson.dumps(payload)
    major, limits, auth = str(channel_id), buckets(), f"Bot {http.token}"
    for _ in range(TRIES):
        await limits.wait(EDIT_ROUTE, major)
        slot = await budget().take()
        try:
            answer = await pool().request(
                origin(Route.BASE),
                "PATCH",
                path,
                body,
                agent=http.user_agent,
                auth=auth,
                sending=partial(budget().leaving, slot),
            )
        except BaseException:
            limits.update(EDIT_ROUTE, major, {})  # no answer: the bucket is as it was
            raise
        finally:
            budget().settle(slot)  # if it failed before it left: counted from now
        limits.update(EDIT_ROUTE, major, answer.headers)
        if answer.status != TOO_MANY:
            break
        _waited_out(answer, limits, major)  # the next try waits for it
    else:
        raise discord.RateLimited(_retry_after(answer))
    await _answered(answer, again)


def _waited_out(answer: Answer, limits: RouteBuckets, major: str) -> None:
    """A 429: its bucket waits `retry_after`, and the whole budget too if it is global."""
    seconds = _retry_after(answer)
    if global_limit_met(answer.headers) is not None:
        budget().pause(seconds)
    else:  # the route's own limit ("user"), or the resource's ("shared"): this bucket
        limits.hold(EDIT_ROUTE, major, seconds)


def _retry_after(answer: Answer) -> float:
    with contextlib.suppress(ValueError, TypeError, AttributeError):
        return max(float(orjson.loads(answer.body)["retry_after"]), 0.0)
    with contextlib.suppress(ValueError):
        return max(float(answer.headers.get("retry-after", "1")), 0.0)
    return 1.0


async def _answered(answer: Answer, again: Callable[[], Awaitable[Any]]) -> None:
    """Done for a 2xx; through discord.py again for a server error; else its exception."""
    status = answer.status
    if 200 <= status < 300:
        return
    if status >= SERVER_ERROR:
        await again()
        return
    data: str | dict[str, Any] = answer.body.decode("utf-8", "replace")
    if answer.content_type.startswith("application/json"):
        with contextlib.suppress(ValueError):
            data = orjson.loads(answer.body)
    raise _refusal(answer, data)


async def _through_pool(
    method: str,
    path: str,
    body: bytes,
    *,
    http: discord.http.HTTPClient,
    again: Callable[[], Awaitable[Any]],
    auth: str | None = None,
) -> None:
    answer = await pool().request(
        origin(Route.BASE), method, path, body, agent=http.user_agent, auth=auth
    )
    if answer.status == TOO_MANY:
        await again()
        return
    await _answered(answer, again)


async def _through_session(
    session: aiohttp.ClientSession,
    method: str,
    path: str,
    body: bytes,
    *,
    http: discord.http.HTTPClient,
    again: Callable[[], Awaitable[Any]],
) -> None:
    async with session.request(
        method,
        Route.BASE + path,
        data=body,
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


def _refusal(response: Any, data: str | dict[str, Any]) -> Exception:
    """discord.py's exception for a refusal: an aiohttp response or an `Answer` (its
    exceptions read only the status and reason of the answer they are given)."""
    if response.status == 404:
        return discord.NotFound(response, data)
    if response.status == 403:
        return discord.Forbidden(response, data)
    return discord.HTTPException(response, data)
