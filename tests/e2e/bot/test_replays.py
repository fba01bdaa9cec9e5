"""Issue 26 end to end: a Duo and a Pizza match played to the end through the real bot,
then every player steps through the whole replay.

While the matches are played, a recorder keeps what the live table message showed
at each state it showed (its version known from the database's truth) and what each
player's hand panel showed (its version is in its controls' custom_ids). Each replay
step must then be: the table as the database's seed and log rebuild it at that step,
equal to what the live table showed there whenever it was seen; the viewer's own
hand, equal to their panel's; and no card that only other players held.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest_asyncio

from cogs.uno import render
from cogs.uno.i18n.l10n import speaking
from cogs.uno.table.options import TableOptions
from db.database import Database
from engine import actions as engine_actions
from engine.cards import Card
from engine.match import new_match
from engine.views import PublicView
from playground import Driver, Emulator, Log, Message, User
from tests.e2e.bot.conftest import new_scene
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.replay_scan import cards_of, hand_read, others_only
from tests.e2e.uno_table import TURN_SECONDS, ScriptedTable, TableWatch, comparable, load_truth

MAX_ACTIONS = 1500
DEADLINE = re.compile(r" · <t:\d+:R>")
VERSIONED = re.compile(r"uno:\d+:(?P<version>\d+):(?P<code>[^:]+)")


def no_deadline(embed: dict[str, Any]) -> dict[str, Any]:
    """A live table embed without its turn's deadline, which a replay does not show."""
    cleaned: dict[str, Any] = json.loads(DEADLINE.sub("", json.dumps(embed, ensure_ascii=False)))
    return cleaned


class Recorder(TableWatch):
    """TableWatch that keeps what the table and each panel showed, by version."""

    def __init__(self, table: ScriptedTable, database: Path, driver: Driver) -> None:
        super().__init__(table, database, driver)
        self.expected: dict[int, dict[str, Any]] = {}
        self.shown: dict[int, dict[str, Any]] = {}  # version -> the live embed, no deadline
        self.hands: dict[tuple[int, int], str] = {}  # (user id, version) -> the panel's hand

    async def check(self, *, exact: bool, within: float = PATIENCE) -> bool:
        found = await self._expected_embed()
        if found is None:
            return False
        truth, expected = found
        self.expected[truth.match.version] = expected
        if exact:
            await self.driver.wait_for(lambda: self._shown() == expected, timeout=within)
        self._observe()
        return True

    def _observe(self) -> None:
        shown = self._shown()
        version = next((v for v, e in reversed(self.expected.items()) if e == shown), None)
        assert shown is None or version is not None, "the table showed a state never had"
        if shown is not None and version is not None:
            self.shown[version] = no_deadline(shown)
        for user in self.table.users:
            panel = self.table.panel(user)
            version = None if panel is None else panel_version(panel)
            if panel is not None and version is not None and panel.embeds:
                self.hands[(user.id, version)] = panel.embeds[0].get("description", "")


def panel_version(panel: Message) -> int | None:
    """The state a hand panel was drawn for, from a control that carries it."""
    for custom_id in panel.custom_ids():
        found = VERSIONED.fullmatch(custom_id)
        if found and found["code"] not in ("hand", "uno"):
            return int(found["version"])
    return None


@dataclass
class Steps:
    """The match as the database's seed and log rebuild it: each step's table and hands."""

    match_id: int
    names: dict[str, str]
    options: str
    views: list[PublicView] = field(default_factory=list)
    hands: list[dict[str, tuple[Card, ...]]] = field(default_factory=list)


async def rebuild(database: Path, match_id: int) -> Steps:
    async with Database.open(database) as db:
        stored = await db.history.stored_match(match_id)
    row = stored.match
    play = TableOptions.from_data(row.options, turn_seconds=TURN_SECONDS)
    players = [str(s.user_id) for s in row.players]
    match = new_match(row.variant, players=players, seed=row.seed, options=play.engine(row.variant))
    steps = Steps(match_id, {str(s.user_id): s.display_name for s in row.players}, play.words())

    def keep() -> None:
        steps.views.append(match.public_view())
        steps.hands.append({p: match.private_view(p).hand for p in players})

    keep()
    for logged in stored.actions:
        data = json.loads(logged.action_json)
        player = str(logged.player_id)
        if data.get("type") == "remove":
            match.remove_player(player)
        else:
            match.apply_logged(player, engine_actions.from_json(data))
        keep()
    return steps


@dataclass
class Played:
    scene: Scene
    users: list[User]
    recorder: Recorder
    match_id: int
    summary: Message


async def play(emu: Emulator, driver: Driver, database: Path, variant: str, players: int) -> Played:
    scene = new_scene(emu)
    users = [scene.alice, scene.bob] + [
        emu.add_user(f"player{i}", guild=scene.guild) for i in range(players - 2)
    ]
    table = ScriptedTable(driver, scene.channel, users, seed=players + 20)
    if variant == "duo":
        await table.open("duo", opponent=scene.bob, target=50)
    else:  # a round of Pizza often scores 50 alone: a few rounds to step through
        await table.open(variant, target=200)
    await table.open_hands()
    async with Recorder(table, database, driver) as recorder:
        checked = 0
        while table.actions < MAX_ACTIONS:
            if not await recorder.check(exact=checked % 6 == 0):
                break
            checked += 1
            if not await table.step():
                break
    assert await load_truth(database, scene.channel.id) is None, "the match did not finish"
    assert table.failures() == []

    def summary() -> Message | None:
        return next(
            (
                m
                for m in driver.visible(scene.alice, scene.channel)
                if not m.ephemeral
                and m.embeds
                and m.embeds[0].get("footer", {}).get("text", "").startswith("Match ")
            ),
            None,
        )

    posted: Message = await driver.wait_for(summary, timeout=PATIENCE)
    match_id = int(posted.embeds[0]["footer"]["text"].split()[1])
    return Played(scene, users, recorder, match_id, posted)


@pytest_asyncio.fixture(scope="module", loop_scope="package")
async def played(
    emu: Emulator, shared_bot: BotProcess, shared_database: Path
) -> AsyncIterator[dict[str, Played]]:
    emu.world.log = Log()  # what the emulator saw of this module: checked by each test
    driver = Driver(emu)
    duo, pizza = await asyncio.gather(
        play(emu, driver, shared_database, "duo", 2),
        play(emu, driver, shared_database, "pizza", 3),
    )
    yield {"duo": duo, "pizza": pizza}


@dataclass
class Seen:
    live: int = 0  # steps compared with what the live table showed
    panels: int = 0  # steps compared with what the viewer's panel showed
    secrets: int = 0  # other players' cards looked for


@dataclass(frozen=True)
class Shot:
    """A replay panel as it read at one step."""

    content: str
    embeds: list[dict[str, Any]]


async def step_through(driver: Driver, user: User, first: Message) -> list[Shot]:
    """Press Next from the first step to the last; what the panel read at each step."""
    frames: list[Shot] = []
    panel = first
    while True:
        frames.append(Shot(panel.content, json.loads(json.dumps(panel.embeds))))
        following = next(b for b in panel.buttons() if b["custom_id"].endswith(".n"))
        if following.get("disabled"):
            return frames
        outcome = await driver.click(user, panel, following["custom_id"])
        assert not outcome.failed
        assert outcome.message is not None
        panel = outcome.message


def check_frames(played: Played, steps: Steps, user: User, frames: list[Shot]) -> Seen:
    seen = Seen()
    viewer = str(user.id)
    assert len(frames) == len(steps.views)
    for step, frame in enumerate(frames):
        assert f"step {step} of {len(steps.views) - 1}" in frame.content
        public = comparable(frame.embeds[0])
        with speaking("en"):
            rebuilt = render.table_embed(
                steps.views[step],
                names=steps.names,
                table_id=steps.match_id,
                deadline=None,
                options=steps.options,
            )
        assert public == comparable(rebuilt.to_dict()), step
        if step in played.recorder.shown:
            assert public == played.recorder.shown[step], step
            seen.live += 1
        hands = steps.hands[step]
        own = hand_read(frame.embeds[1]["description"])
        assert frame.embeds[1]["title"].startswith("Your hand")
        assert own == cards_of(hands[viewer]), step
        if (user.id, step) in played.recorder.hands:
            assert own == hand_read(played.recorder.hands[(user.id, step)]), step
            seen.panels += 1
        secret = others_only(hands[viewer], [h for p, h in hands.items() if p != viewer])
        seen.secrets += len(secret)
        assert not secret & set(own)
        assert not secret & set(hand_read(frame.content))
        for extra in frame.embeds[2:]:  # only the summary of a round this step ended
            ended = int(extra["title"].split()[1].rstrip(":"))
            assert ended in (steps.views[step].round, steps.views[step].round - 1)
    return seen


async def replay_for_everyone(driver: Driver, played: Played, database: Path) -> dict[str, Seen]:
    steps = await rebuild(database, played.match_id)
    seen = {}
    for index, user in enumerate(played.users):
        if index == 0:  # the summary's Replay button
            replay = next(b for b in played.summary.buttons() if b["custom_id"].endswith(".o"))
            opened = await driver.click(user, played.summary, replay["custom_id"])
        else:
            opened = await driver.slash(
                user, played.scene.channel, "uno replay", match=played.match_id
            )
        first = await opened.wait_message()
        assert first.ephemeral_to is user
        frames = await step_through(driver, user, first)
        seen[user.name] = check_frames(played, steps, user, frames)
    print(f"{played.match_id}: {len(steps.views)} steps; {seen}")
    return seen


def assert_compared(seen: dict[str, Seen], played: Played) -> None:
    """Every player's replay met the live table and their own panel often (the table was
    waited for every 6th action, and each check saw the panel of the player to act), and
    Discord's limits held for every answer and edit."""
    log = played.recorder.driver.emulator.world.log
    assert log.failed == []
    assert log.violations == []
    assert [c for c in log.calls if c.status == 429] == []
    steps = max(played.recorder.expected)
    for name, counts in seen.items():
        assert counts.live >= max(3, steps // 10), (name, counts)
        assert counts.panels >= max(3, steps // 10), (name, counts)
        assert counts.secrets > 50, (name, counts)


async def test_x4_every_duo_replay_step_is_what_the_table_and_panel_showed(
    driver: Driver, played: dict[str, Played], shared_database: Path
) -> None:
    seen = await replay_for_everyone(driver, played["duo"], shared_database)
    assert_compared(seen, played["duo"])


async def test_x4_every_pizza_replay_step_is_what_the_table_and_panel_showed(
    driver: Driver, played: dict[str, Played], shared_database: Path
) -> None:
    seen = await replay_for_everyone(driver, played["pizza"], shared_database)
    assert_compared(seen, played["pizza"])


async def test_history_lists_the_match_and_replays_it_from_the_page(
    driver: Driver, played: dict[str, Played]
) -> None:
    match = played["pizza"]
    scene = match.scene
    page = await (await driver.slash(scene.bob, scene.channel, "uno history")).wait_message()
    assert page.ephemeral_to is scene.bob
    assert f"match {match.match_id}" in page.text()
    for user in match.users:
        assert user.name in page.text()
    picked = await driver.select(scene.bob, page, "uno:hr", [str(match.match_id)])
    panel = await picked.wait_message()
    assert panel.ephemeral_to is scene.bob
    assert f"Replay of match {match.match_id} · step 0 of" in panel.content
    # The round jump: round 2 starts where the engine says it does.
    rounds = next(
        c for c in panel.iter_components() if c.get("custom_id", "").startswith("uno:rr.")
    )
    second = next(o for o in rounds["options"] if o["label"] == "Round 2")
    jumped = await driver.select(scene.bob, panel, rounds["custom_id"], [second["value"]])
    assert jumped.message is not None
    assert f"step {second['value']} of" in jumped.message.content
    assert "Round 2" in jumped.message.embeds[0]["title"]
    shared = await driver.click(scene.bob, page, label="Share")
    public = await shared.wait_message()
    assert not public.ephemeral
    assert f"match {match.match_id}" in public.text()


async def test_forget_leaves_the_replay_with_a_deleted_member(
    driver: Driver, played: dict[str, Played]
) -> None:
    match = played["duo"]
    scene = match.scene
    forgot = await driver.slash(scene.bob, scene.channel, "uno forget")
    assert "erased" in (await forgot.wait_message()).text()
    mine = await (await driver.slash(scene.bob, scene.channel, "uno history")).wait_message()
    assert f"match {match.match_id}" not in mine.text()
    theirs = await (await driver.slash(scene.alice, scene.channel, "uno history")).wait_message()
    assert f"match {match.match_id}" in theirs.text()
    assert "Deleted member" in theirs.text()
    assert "bob" not in theirs.text()
    opened = await driver.slash(scene.alice, scene.channel, "uno replay", match=match.match_id)
    panel = await opened.wait_message()
    assert "Deleted member" in panel.text()
    assert "bob" not in panel.text()
    again = await driver.slash(scene.bob, scene.channel, "uno replay", match=match.match_id)
    watched = await again.wait_message()
    assert "You didn't play in this match" in watched.content
    assert len(watched.embeds) == 1 or "Your hand" not in watched.embeds[1].get("title", "")


async def test_a_croatian_member_watches_a_replay_in_croatian(
    emu: Emulator, driver: Driver, played: dict[str, Played]
) -> None:
    match = played["pizza"]
    ana = emu.add_user("ana", guild=match.scene.guild, locale="hr")
    opened = await driver.slash(ana, match.scene.channel, "uno replay", match=match.match_id)
    panel = await opened.wait_message()
    assert panel.content.startswith(f"Snimka meča {match.match_id} · korak 0 od")
    assert "Nisi igrao/la u ovom meču" in panel.content
    assert len(panel.embeds) == 1  # the table only: ana holds no hand in it
    labels = {b.get("label") for b in panel.buttons()}
    assert {"Početak", "Natrag", "Dalje", "Kraj"} <= labels
    missing = await driver.slash(ana, match.scene.channel, "uno replay", match=987654321)
    assert "nema završenog meča" in (await missing.wait_message()).text()
