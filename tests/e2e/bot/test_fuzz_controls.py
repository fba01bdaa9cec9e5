"""Random and mutated custom_ids and select values at a running table: every one is
answered on purpose, nothing fails, nothing changes, nothing reaches the log as a traceback."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from cogs.uno import ids
from engine.actions import Draw, Play
from engine.cards import duo_deck, pizza_deck
from playground import Driver, Emulator, Message, User
from tests.e2e.bot.forge import forge
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.uno_table import ScriptedTable, load_truth

Click = tuple[int, int, str, list[str] | None]  # who, which message, custom_id, values
CARD_CODES = sorted({ids.encode_action(Play(c)) for c in [*duo_deck(), *pizza_deck()]})
CODES = [*CARD_CODES, ids.encode_action(Draw()), "hand", "uno", "sel", "sel.3", "pg.1", "join"]


def offered(message: Message) -> set[tuple[str, str | None]]:
    """Every (custom_id, value) the bot really drew on a message: the clicks a client sends."""
    found: set[tuple[str, str | None]] = set()
    for component in message.iter_components():
        custom_id = component.get("custom_id", "")
        if component["type"] == 3:
            found |= {(custom_id, option["value"]) for option in component["options"]}
        else:
            found.add((custom_id, None))
    return found


def clicks(real: list[str], table_id: int, version: int) -> st.SearchStrategy[Click]:
    mutated = st.tuples(st.sampled_from(real), st.integers(0, 60), st.text(max_size=3)).map(
        lambda t: t[0][: t[1]] + t[2] + t[0][t[1] + 1 :]
    )
    forged = st.builds(
        lambda t, v, code: f"uno:{t}:{v}:{code}",
        st.sampled_from([table_id, table_id + 1, 0, 10**19]),
        st.sampled_from([version, version + 1, max(version - 1, 0), 0]),
        st.sampled_from(CODES) | st.text(max_size=6),
    )
    lobbies = st.builds(
        lambda n, v, code: f"uno:lobby:{n}:{v}:{code}",
        st.integers(0, 5),
        st.integers(0, 3),
        st.sampled_from(sorted(ids.LOBBY_CODES)),
    )
    boards = st.builds(
        lambda variant, page: f"uno:lb.{variant}.{page}",
        st.sampled_from(["duo", "pizza", "uno"]),
        st.integers(0, 200_000),
    )
    custom_id = st.one_of(
        st.text(max_size=120), mutated, forged, lobbies, boards, st.sampled_from(real)
    )
    value = st.sampled_from(CODES) | st.text(max_size=8)
    values = st.none() | st.lists(value, max_size=3)
    return st.tuples(st.integers(0, 2), st.integers(0, 2), custom_id, values)


def draw(real: list[str], table_id: int, version: int) -> list[Click]:
    drawn: list[Click] = []

    @settings(
        max_examples=120,
        database=None,
        derandomize=True,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(clicks(real, table_id, version))
    def collect(click: Click) -> None:
        drawn.append(click)

    collect()
    return drawn


async def test_unissued_ids_and_values_are_answered_and_change_nothing(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=7)
    await table.open("duo", opponent=scene.bob)
    await table.open_hands()
    before = await load_truth(database, scene.channel.id)
    assert before is not None
    stranger = emu.add_user("stranger", guild=scene.guild)
    users: list[User] = [scene.alice, scene.bob, stranger]

    def messages() -> list[Message]:
        shown = [table.table_message(), table.panel(scene.alice), table.panel(scene.bob)]
        return [m for m in shown if m is not None]

    real = sorted({c for m in messages() for c in m.custom_ids()})
    fired = 0
    for who, where, custom_id, values in draw(real, before.table_id, before.match.version):
        message = messages()[where % len(messages())]
        choice = (custom_id, values[0] if values and len(values) == 1 else None)
        if choice in offered(message) and (not values or len(values) == 1):
            # A click the bot really offered (a button pressed with an empty list of
            # values is still that button): not what this test is about.
            continue
        outcome = await forge(emu, users[who], scene.channel, message, custom_id, values)
        assert not outcome.failed, custom_id
        assert outcome.response_type is not None
        fired += 1
    assert fired >= 100
    after = await load_truth(database, scene.channel.id)
    assert after is not None
    assert after.match.version == before.match.version
    assert emu.log.failed == []
    assert table.table_message() is not None  # no forged pager replaced the table
