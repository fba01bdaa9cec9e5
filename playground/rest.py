"""The HTTP API under /api/v10: routes that turn requests into `World` calls, and back."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import BodyPartReader, hdrs, web

from .errors import ApiError
from .invalid_requests import BAN_PAGE
from .log import RestCall
from .models import Guild, Message
from .world import Upload, World

API_PREFIX = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


Answer = Callable[[], Awaitable[web.StreamResponse]]
RouteHook = Callable[[web.Request, Answer], Awaitable[web.StreamResponse]]


def _json(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py parses a body only when Content-Type is exactly "application/json".
    all_headers = {hdrs.CONTENT_TYPE: "application/json", **(headers or {})}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def _interaction_token_route(path: str) -> bool:
    """Interaction callbacks and the webhooks of an interaction's token: no bot token is
    needed there, and Discord leaves them out of the global rate limit."""
    return path.removeprefix(API_PREFIX).startswith(("/interactions/", "/webhooks/"))


def _is_json(response: web.Response) -> bool:
    return response.content_type == "application/json" and bool(response.body)


def _requester(request: web.Request) -> str:
    """Whom the invalid requests are counted against: the credential the request carries
    (the bot token), else, as Discord does without one, the address it comes from."""
    return request.headers.get(hdrs.AUTHORIZATION) or f"address {request.remote}"


def _ban(seconds_left: float) -> web.Response:
    # No `Via` and no JSON: discord.py takes exactly that for Cloudflare's ban.
    return web.Response(
        text=BAN_PAGE,
        status=429,
        content_type="text/html",
        headers={"Retry-After": str(math.ceil(seconds_left))},
    )


def _snowflake(request: web.Request, key: str) -> int:
    try:
        return int(request.match_info[key])
    except ValueError:
        raise web.HTTPNotFound() from None


async def read_body(request: web.Request) -> tuple[dict[str, Any], list[Upload]]:
    """Return the JSON payload and uploaded files of a JSON or multipart/form-data request."""
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        uploads: list[Upload] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader) or part.name is None:
                continue
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            elif part.name.startswith("files["):
                uploads.append(
                    Upload(
                        index=int(part.name[6:-1]),
                        filename=part.filename or "file",
                        content_type=part.headers.get(
                            hdrs.CONTENT_TYPE, "application/octet-stream"
                        ),
                        data=bytes(await part.read()),
                    )
                )
        return payload, uploads
    if not request.can_read_body:
        return {}, []
    return await request.json(), []


class RestApi:
    """Build the aiohttp application for one `World`; count requests in flight."""

    def __init__(self, world: World, *, gateway_bot: Callable[[], dict[str, Any]]) -> None:
        self.world = world
        self.gateway_bot = gateway_bot  # `GET /gateway/bot`'s answer, from the gateway
        self.in_flight = 0
        # Seconds a request spends on the way (method, path -> seconds): a test makes one
        # kind of request slow, as a loaded network does, to order a race it needs.
        self.latency: Callable[[str, str], float] = lambda method, path: 0.0
        # Tests only: a request to a route ("POST /channels/{channel_id}/messages") goes
        # through its hook, which calls the route's handler when and if it likes: Discord
        # slow to answer what it has already done, or a bot stopped just before a request.
        self.route_hooks: dict[str, RouteHook] = {}

    # -- plumbing ----------------------------------------------------------------------------

    def routes(self) -> list[web.RouteDef]:
        r = [
            web.get("/users/@me", self.me),
            web.get("/users/{user_id}", self.get_user),
            web.get("/gateway", self.gateway),
            web.get("/gateway/bot", self.bot_gateway),
            web.get("/oauth2/applications/@me", self.application),
            web.get("/applications/@me", self.application),
            web.get("/applications/{application_id}/commands", self.get_commands),
            web.put("/applications/{application_id}/commands", self.put_commands),
            web.get("/applications/{application_id}/guilds/{guild_id}/commands", self.get_commands),
            web.put("/applications/{application_id}/guilds/{guild_id}/commands", self.put_commands),
            web.get("/applications/{application_id}/emojis", self.list_emojis),
            web.post("/applications/{application_id}/emojis", self.create_emoji),
            web.get("/applications/{application_id}/emojis/{emoji_id}", self.get_emoji),
            web.patch("/applications/{application_id}/emojis/{emoji_id}", self.edit_emoji),
            web.delete("/applications/{application_id}/emojis/{emoji_id}", self.delete_emoji),
            web.post("/interactions/{interaction_id}/{token}/callback", self.callback),
            web.post("/webhooks/{application_id}/{token}", self.followup),
            web.get("/webhooks/{application_id}/{token}/messages/{message_id}", self.get_hook),
            web.patch("/webhooks/{application_id}/{token}/messages/{message_id}", self.edit_hook),
            web.delete("/webhooks/{application_id}/{token}/messages/{message_id}", self.del_hook),
            web.get("/channels/{channel_id}", self.get_channel),
            web.post("/channels/{channel_id}/typing", self.typing),
            web.get("/channels/{channel_id}/messages", self.history),
            web.post("/channels/{channel_id}/messages", self.post_message),
            web.post("/channels/{channel_id}/threads", self.start_thread),
            web.post("/channels/{channel_id}/messages/{message_id}/threads", self.start_thread),
            web.get("/channels/{channel_id}/messages/{message_id}", self.get_message),
            web.patch("/channels/{channel_id}/messages/{message_id}", self.edit_message),
            web.delete("/channels/{channel_id}/messages/{message_id}", self.delete_message),
            web.get("/guilds/{guild_id}", self.get_guild),
            web.get("/guilds/{guild_id}/channels", self.get_guild_channels),
            web.get("/guilds/{guild_id}/members/{user_id}", self.get_member),
        ]
        return [web.route(d.method, API_PREFIX + d.path, d.handler) for d in r]

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Check auth and the application's limits, map errors to Discord's answers,
        record every call."""
        if not request.path.startswith(API_PREFIX):
            return await handler(request)  # the gateway socket and attachment downloads
        self.in_flight += 1
        self.world.changed()
        route = request.path
        try:
            if (travel := self.latency(request.method, request.path)) > 0:
                await asyncio.sleep(travel)
            resource = request.match_info.route.resource
            if resource is not None and isinstance(request.match_info.route, web.ResourceRoute):
                route = resource.canonical.removeprefix(API_PREFIX)
            hook = self.route_hooks.get(f"{request.method} {route}")
            if hook is None:
                response = await self._limited(request, handler)
            else:
                response = await hook(request, lambda: self._limited(request, handler))
        finally:
            self.in_flight -= 1
        code = None
        if isinstance(response, web.Response) and response.status >= 400 and _is_json(response):
            code = json.loads(response.body).get("code")  # type: ignore[arg-type]
        call = RestCall(
            request.method, route, request.path, response.status, self.world.clock.now(), code
        )
        self.world.log.calls.append(call)
        self.world.changed()
        return response

    async def _limited(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Answer a banned requester with the ban, else answer and count invalid answers."""
        requester = _requester(request)
        invalid = self.world.invalid_requests
        banned_for = invalid.banned_for(requester)
        if banned_for > 0:
            self.world.violation("banned", f"{request.method} {request.path}")
            return _ban(banned_for)
        response = await self._answer(request, handler)
        scope = response.headers.get("X-RateLimit-Scope")
        if invalid.note(requester, response.status, scope):
            detail = f"{invalid.limit} invalid requests within {invalid.per:g} s"
            self.world.violation("invalid_requests", detail)
        return response

    async def _answer(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        path = request.path
        try:
            if not self._authorized(request):
                raise ApiError(401, 0, "401: Unauthorized", kind="unauthorized")
            if not _interaction_token_route(path):
                self.world.global_limit.take()
            response = await handler(request)
        except ApiError as error:
            self.world.violation(error.kind, f"{request.method} {path}: {error.body()}")
            headers = {"Via": "1.1 google", **error.headers}
            return _json(error.body(), status=error.status, headers=headers)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed) as error:
            self.world.violation("unknown_route", f"{request.method} {path}")
            body = {"message": f"{error.status}: {error.reason}", "code": 0}
            return _json(body, status=error.status)
        except Exception as error:  # an emulator bug: make it loud in the log, not a hang
            self.world.violation("emulator_error", f"{request.method} {path}: {error!r}")
            raise
        response.headers.setdefault("Via", "1.1 google")
        return response

    def _authorized(self, request: web.Request) -> bool:
        if _interaction_token_route(request.path):
            return True  # interaction tokens are the credential there
        token = request.headers.get(hdrs.AUTHORIZATION, "")
        bot_token = token.removeprefix("Bot ")
        return (
            token.startswith("Bot ")
            and bot_token == self.world.token
            and bot_token not in self.world.refused_tokens
        )

    def _message(self, message: Message, *, edited: bool = False) -> web.Response:
        """Answer with a message; an edit carries the channel edit bucket's headers."""
        headers = None
        if edited and not message.ephemeral:
            headers = self.world.edit_limit.headers(message.channel.id)
        return _json(message.payload(), headers=headers)

    # -- connection --------------------------------------------------------------------------

    async def me(self, request: web.Request) -> web.Response:
        return _json({**self.world.bot.payload(), "verified": True, "mfa_enabled": False})

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.world.users.get(_snowflake(request, "user_id"))
        if user is None:
            raise ApiError(404, 10013, "Unknown User", kind="unknown_user")
        return _json(user.payload())

    async def gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_bot()["url"]})

    async def bot_gateway(self, request: web.Request) -> web.Response:
        return _json(self.gateway_bot())

    async def application(self, request: web.Request) -> web.Response:
        bot = self.world.bot
        return _json(
            {
                "id": str(self.world.application_id),
                "name": bot.name,
                "icon": None,
                "description": "",
                "summary": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": bot.payload(),
                "bot": bot.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
            }
        )

    async def get_commands(self, request: web.Request) -> web.Response:
        guild_id = int(request.match_info["guild_id"]) if "guild_id" in request.match_info else None
        commands = self.world.commands.get(guild_id, [])
        return _json([c.payload() for c in commands])

    async def put_commands(self, request: web.Request) -> web.Response:
        guild_id = int(request.match_info["guild_id"]) if "guild_id" in request.match_info else None
        body, _ = await read_body(request)
        app_id = _snowflake(request, "application_id")
        commands = self.world.sync_commands(app_id, guild_id, body)  # type: ignore[arg-type]
        return _json([c.payload() for c in commands])

    # -- application emojis ------------------------------------------------------------------

    async def list_emojis(self, request: web.Request) -> web.Response:
        emojis = self.world.emojis.listed(_snowflake(request, "application_id"))
        return _json({"items": [e.payload() for e in emojis]})

    async def create_emoji(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        emoji = self.world.emojis.create(_snowflake(request, "application_id"), body)
        return _json(emoji.payload(), status=201)

    def _emoji_ids(self, request: web.Request) -> tuple[int, int]:
        return _snowflake(request, "application_id"), _snowflake(request, "emoji_id")

    async def get_emoji(self, request: web.Request) -> web.Response:
        return _json(self.world.emojis.get(*self._emoji_ids(request)).payload())

    async def edit_emoji(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        return _json(self.world.emojis.edit(*self._emoji_ids(request), body).payload())

    async def delete_emoji(self, request: web.Request) -> web.Response:
        self.world.emojis.delete(*self._emoji_ids(request))
        return web.Response(status=204)

    # -- interactions ------------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        body, uploads = await read_body(request)
        answer = self.world.interaction_callback(
            _snowflake(request, "interaction_id"), request.match_info["token"], body, uploads
        )
        if request.query.get("with_response", "").lower() in ("1", "true"):
            return _json(answer)
        return web.Response(status=204)

    async def followup(self, request: web.Request) -> web.Response:
        body, uploads = await read_body(request)
        app_id, token = _snowflake(request, "application_id"), request.match_info["token"]
        message = self.world.followup(app_id, token, body, uploads)
        if request.query.get("wait", "").lower() in ("1", "true"):
            return self._message(message)
        return web.Response(status=204)

    def _hook_args(self, request: web.Request) -> tuple[int, str, str]:
        return (
            _snowflake(request, "application_id"),
            request.match_info["token"],
            request.match_info["message_id"],
        )

    async def get_hook(self, request: web.Request) -> web.Response:
        return self._message(self.world.webhook_message(*self._hook_args(request)))

    async def edit_hook(self, request: web.Request) -> web.Response:
        body, uploads = await read_body(request)
        message = self.world.edit_webhook_message(*self._hook_args(request), body, uploads)
        return self._message(message, edited=True)

    async def del_hook(self, request: web.Request) -> web.Response:
        self.world.delete_webhook_message(*self._hook_args(request))
        return web.Response(status=204)

    # -- channels and messages ---------------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        return _json(self.world.channel(_snowflake(request, "channel_id")).payload())

    async def typing(self, request: web.Request) -> web.Response:
        self.world.channel(_snowflake(request, "channel_id"))
        return web.Response(status=204)

    async def history(self, request: web.Request) -> web.Response:
        query = request.query
        messages = self.world.history(
            _snowflake(request, "channel_id"),
            limit=min(int(query.get("limit", 50)), 100),
            before=int(query["before"]) if "before" in query else None,
            after=int(query["after"]) if "after" in query else None,
        )
        return _json([m.payload() for m in messages])

    async def post_message(self, request: web.Request) -> web.Response:
        body, uploads = await read_body(request)
        return self._message(
            self.world.post_message(_snowflake(request, "channel_id"), body, uploads)
        )

    async def start_thread(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        message = request.match_info.get("message_id")
        thread = self.world.start_thread(
            _snowflake(request, "channel_id"),
            body,
            None if message is None else _snowflake(request, "message_id"),
        )
        return _json(thread.payload(), status=201)

    async def get_message(self, request: web.Request) -> web.Response:
        ids = _snowflake(request, "channel_id"), _snowflake(request, "message_id")
        return _json(self.world.get_message(*ids).payload())

    async def edit_message(self, request: web.Request) -> web.Response:
        body, uploads = await read_body(request)
        ids = _snowflake(request, "channel_id"), _snowflake(request, "message_id")
        return self._message(self.world.edit_message(*ids, body, uploads), edited=True)

    async def delete_message(self, request: web.Request) -> web.Response:
        ids = _snowflake(request, "channel_id"), _snowflake(request, "message_id")
        self.world.delete_message(*ids)
        return web.Response(status=204)

    # -- guilds ------------------------------------------------------------------------------

    def _guild(self, request: web.Request) -> Guild:
        guild = self.world.guilds.get(_snowflake(request, "guild_id"))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild", kind="unknown_guild")
        return guild

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return _json(guild.payload(member_list=[]))

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        return _json([c.payload() for c in self._guild(request).channels if not c.deleted])

    async def get_member(self, request: web.Request) -> web.Response:
        member = self._guild(request).members.get(_snowflake(request, "user_id"))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member", kind="unknown_member")
        return _json(member.payload())

    # -- outside the API ---------------------------------------------------------------------

    async def attachment(self, request: web.Request) -> web.Response:
        attachment_id = _snowflake(request, "attachment_id")
        for message in self.world.messages.values():
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return web.Response(body=attachment.data, content_type=attachment.content_type)
        raise web.HTTPNotFound()

    async def emoji_image(self, request: web.Request) -> web.Response:
        """The CDN's `/emojis/{id}.png` (or .webp, .gif: the stored image either way)."""
        stem, _, extension = request.match_info["file"].partition(".")
        emoji = self.world.emojis.image(int(stem)) if stem.isdigit() else None
        if emoji is None or extension not in ("png", "webp", "gif", "jpg", "jpeg"):
            raise web.HTTPNotFound()
        return web.Response(body=emoji.image, content_type=emoji.content_type)
