"""The leaderboard by skill rating and `/uno stats` with its chart, through the real bot.

Finished matches go into the running bot's SQLite file with the project's own
repositories (ratings are updated with each result), on a server of the test's
own, so the board a member reads is compared with what the database says.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image

from db.database import Database
from db.models import Seat
from playground import Driver, Emulator, Message, Outcome, User
from tests.e2e.bot.test_boards import Clock, record_match
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene

LINE = re.compile(
    r"(?:🥇|🥈|🥉|\*\*\d+\.\*\*) \*\*(?P<name>\w+)\*\* — skill (?P<skill>-?\d+\.\d) · "
    r"(?P<won>\d+) won of (?P<played>\d+) played · \d+ points? conceded"
)
# (winner, loser) of each Duo match, in order: ace beats everyone, bea beats cal
# and dan, dan beats cal once; cal plays 3 matches only, so is not ranked yet.
MATCHES = [
    ("ace", "bea"), ("ace", "dan"), ("ace", "bea"), ("bea", "dan"), ("ace", "dan"),
    ("bea", "cal"), ("dan", "cal"), ("ace", "bea"), ("bea", "dan"), ("ace", "cal"),
]  # fmt: skip


def private(outcome: Outcome, user: User) -> Message:
    assert not outcome.failed
    message = outcome.message
    assert message is not None
    assert message.ephemeral_to is user
    return message


async def record(database: Path, scene: Scene, players: dict[str, Seat]) -> None:
    clock = Clock()
    async with Database.open(database) as db:
        for winner, loser in MATCHES:
            w, lo = players[winner], players[loser]
            await record_match(
                db,
                guild_id=scene.guild.id,
                channel_id=scene.channel.id,
                variant="duo",
                players=[w, lo],
                rounds=[(w, {lo: 200})],
                results={w: ("won", 1), lo: ("lost", 2)},
                ended_at=clock.next(),
            )


async def test_leaderboard_ranks_by_skill_from_five_matches(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, uno_bot: BotProcess
) -> None:
    users = {name: emu.add_user(name, guild=scene.guild) for name in ("ace", "bea", "cal", "dan")}
    players = {n: Seat(user_id=u.id, display_name=n) for n, u in users.items()}
    await record(database, scene, players)

    answer = await driver.slash(scene.alice, scene.channel, "uno leaderboard")
    assert not answer.failed
    board = answer.message
    assert board is not None
    embed = board.embeds[0]
    lines = [LINE.fullmatch(text) for text in embed["description"].splitlines()]
    assert all(lines), embed["description"]
    shown = [(m["name"], m["skill"], int(m["won"]), int(m["played"])) for m in lines if m]
    async with Database.open(database) as db:
        truth = await db.ratings.leaderboard(guild_id=scene.guild.id, variant="duo")
    assert shown == [
        (e.display_name, f"{e.conservative:.1f}", e.won, e.played) for e in truth.entries
    ]
    assert [name for name, *_ in shown] == ["ace", "bea", "dan"]  # cal: 3 matches
    assert [(f["name"], f["value"]) for f in embed["fields"]] == [
        ("Not ranked yet", "cal (3 of 5 matches)")
    ]
    assert "ranked player" in embed["footer"]["text"]


async def test_stats_show_the_skill_and_a_chart_of_its_changes(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, uno_bot: BotProcess
) -> None:
    users = {name: emu.add_user(name, guild=scene.guild) for name in ("ace", "bea", "cal", "dan")}
    players = {n: Seat(user_id=u.id, display_name=n) for n, u in users.items()}
    await record(database, scene, players)

    ace = users["ace"]
    answer = private(await driver.slash(ace, scene.channel, "uno stats"), ace)
    async with Database.open(database) as db:
        rating = await db.ratings.rating(guild_id=scene.guild.id, user_id=ace.id, variant="duo")
    assert rating is not None
    embed = answer.embeds[0]
    assert f"**UNO Duo:** skill {rating.conservative:.1f}" in embed["description"]
    assert "**UNO Pocket Pizza Pizza:** no rated match yet" in embed["description"]
    assert embed["image"]["url"] == "attachment://rating.png"
    (chart,) = answer.attachments
    assert chart.filename == "rating.png"
    with Image.open(io.BytesIO(chart.data)) as image:
        assert image.format == "PNG"
        assert image.size == (480, 200)

    cal = users["cal"]
    short = private(await driver.slash(cal, scene.channel, "uno stats"), cal)
    assert "not ranked yet (3 of 5 matches)" in short.embeds[0]["description"]


async def test_stats_without_rated_matches_have_no_chart(
    driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    answer = private(await driver.slash(scene.bob, scene.channel, "uno stats"), scene.bob)
    assert answer.attachments == []
    assert "**UNO Duo:** no rated match yet" in answer.embeds[0]["description"]
