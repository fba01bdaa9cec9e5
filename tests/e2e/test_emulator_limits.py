"""Discord's message, embed and component limits: over the limit is 400/50035, at it is fine."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from playground import Driver, Emulator
from playground.errors import ApiError
from playground.limits import check_raises
from tests.e2e.conftest import Scene
from tests.e2e.tinybot import TinyBot

Payload = dict[str, Any]


def button(i: int, *, label: str = "Play", custom_id: str | None = None) -> Payload:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id or f"b{i}"}


def row(*children: Payload) -> Payload:
    return {"type": 1, "components": list(children)}


def select(options: int, *, label: str = "Red 7", value: str = "", **extra: Any) -> Payload:
    opts = [{"label": label, "value": value or f"v{i}"} for i in range(options)]
    if value:  # one long value, the rest distinct
        opts = [{"label": label, "value": value}] + [
            {"label": label, "value": f"v{i}"} for i in range(1, options)
        ]
    return {"type": 3, "custom_id": "pick", "options": opts, **extra}


def embed(**fields: Any) -> Payload:
    return {"title": "Table", **fields}


FIRST = "components.0.components.0"  # the first component of the first row

# (name, payload, the JSON path Discord names in `errors`)
OVER: list[tuple[str, Payload, str]] = [
    ("content 2001", {"content": "x" * 2001}, "content"),
    ("6 rows", {"components": [row(button(i)) for i in range(6)]}, "components"),
    ("6 buttons", {"components": [row(*(button(i) for i in range(6)))]}, "components.0.components"),
    ("26 options", {"components": [row(select(26))]}, f"{FIRST}.options"),
    ("no options", {"components": [row(select(0))]}, f"{FIRST}.options"),
    ("custom_id 101", {"components": [row(button(0, custom_id="c" * 101))]}, f"{FIRST}.custom_id"),
    (
        "duplicate custom_id",
        {"components": [row(button(0, custom_id="same")), row(button(1, custom_id="same"))]},
        "components.1.components.0.custom_id",
    ),
    ("label 81", {"components": [row(button(0, label="L" * 81))]}, f"{FIRST}.label"),
    (
        "select with a button",
        {"components": [row(select(3), button(0))]},
        "components.0.components",
    ),
    (
        "option label 101",
        {"components": [row(select(2, label="o" * 101))]},
        f"{FIRST}.options.0.label",
    ),
    (
        "option value 101",
        {"components": [row(select(2, value="v" * 101))]},
        f"{FIRST}.options.0.value",
    ),
    ("embed total 6001", {"embeds": [embed(description="d" * 4096, fields=[])] * 2}, "embeds"),
    ("title 257", {"embeds": [embed(title="t" * 257)]}, "embeds.0.title"),
    ("description 4097", {"embeds": [embed(description="d" * 4097)]}, "embeds.0.description"),
    (
        "26 fields",
        {"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 26)]},
        "embeds.0.fields",
    ),
    (
        "field name 257",
        {"embeds": [embed(fields=[{"name": "n" * 257, "value": "v"}])]},
        "embeds.0.fields.0.name",
    ),
    (
        "field value 1025",
        {"embeds": [embed(fields=[{"name": "n", "value": "v" * 1025}])]},
        "embeds.0.fields.0.value",
    ),
    ("footer 2049", {"embeds": [embed(footer={"text": "f" * 2049})]}, "embeds.0.footer.text"),
    ("11 embeds", {"embeds": [embed()] * 11}, "embeds"),
]

AT: list[tuple[str, Payload]] = [
    ("content 2000", {"content": "x" * 2000}),
    (
        "5 rows of 5",
        {"components": [row(*(button(5 * r + i) for i in range(5))) for r in range(5)]},
    ),
    ("25 options", {"components": [row(select(25, max_values=25))]}),
    ("custom_id 100", {"components": [row(button(0, custom_id="c" * 100))]}),
    ("label 80", {"components": [row(button(0, label="L" * 80))]}),
    (
        "embed total 6000",
        {"embeds": [embed(title="", description="d" * 4000, footer={"text": "f" * 2000})]},
    ),
    ("10 embeds", {"embeds": [embed()] * 10}),
]


@pytest.mark.parametrize(("name", "payload", "path"), OVER, ids=[o[0] for o in OVER])
def test_over_the_limit_is_invalid_form_body(name: str, payload: Payload, path: str) -> None:
    error = check_raises(payload)
    assert error is not None, name
    assert (error.status, error.code) == (400, 50035)
    assert path in _flat_paths(error.errors or {}).splitlines()


@pytest.mark.parametrize(("name", "payload"), AT, ids=[a[0] for a in AT])
def test_at_the_limit_is_fine(name: str, payload: Payload) -> None:
    assert check_raises(payload) is None


def test_an_empty_message_is_refused() -> None:
    error = check_raises({"content": ""})
    assert error is not None
    assert (error.status, error.code) == (400, 50006)


@pytest.mark.parametrize(("name", "payload", "path"), OVER, ids=[o[0] for o in OVER])
async def test_the_bot_gets_discords_answer(
    emu: Emulator, scene: Scene, tiny_bot: TinyBot, name: str, payload: Payload, path: str
) -> None:
    with pytest.raises(discord.HTTPException) as caught:
        await tiny_bot.post_raw(scene.channel.id, payload)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert f"In {path}: " in caught.value.text  # discord.py shows the path it was told
    assert emu.log.kinds() == ["invalid_form_body"]
    assert emu.world.messages == {}


async def test_an_oversized_answer_leaves_the_interaction_unanswered(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    async def too_big(interaction: discord.Interaction, *, text: str) -> None:
        await interaction.response.send_message("x" * 2001)

    tiny_bot.handlers["probe"] = too_big
    out = await driver.slash(scene.alice, scene.channel, "probe", wait=False)
    await driver.wait_for(lambda: tiny_bot.errors)
    assert isinstance(tiny_bot.errors[0], discord.HTTPException)
    assert tiny_bot.errors[0].code == 50035
    assert not out.interaction.acknowledged
    emu.clock.advance(3.1)
    assert out.failed  # what the user sees: "This interaction failed"


def _flat_paths(tree: dict[str, Any], prefix: str = "") -> str:
    """Render every error path as "a.b.c" lines, for `in` assertions."""
    lines = []
    for key, value in tree.items():
        if key == "_errors":
            lines.append(prefix)
        elif isinstance(value, dict):
            lines.append(_flat_paths(value, f"{prefix}.{key}" if prefix else key))
    return "\n".join(lines)


def _command(**changes: Any) -> Payload:
    option = {"type": 3, "name": "variant", "description": "Which game"}
    command: Payload = {
        "name": "uno",
        "description": "Play UNO",
        "name_localizations": {"hr": "uno"},
        "options": [{"type": 1, "name": "classic", "description": "Classic", "options": [option]}],
    }
    command["options"][0].update(changes)
    return command


@pytest.mark.parametrize(
    "bad",
    [
        {"name_localizations": {"hr": "Klasični"}},  # capitals
        {"name_localizations": {"hr": "klasični uno"}},  # a space
        {"name_localizations": {"hr": "k" * 33}},
        {"description_localizations": {"hr": "d" * 101}},
        {"description": ""},
    ],
)
def test_a_command_with_a_bad_name_or_description_in_any_language_is_refused(
    emu: Emulator, bad: Payload
) -> None:
    world = emu.world
    world.sync_commands(world.application_id, None, [_command()])  # the good one syncs
    with pytest.raises(ApiError) as refused:
        world.sync_commands(world.application_id, None, [_command(**bad)])
    assert refused.value.code == 50035
    ok = {"name_localizations": {"hr": "klasični"}, "description_localizations": {"hr": "d" * 100}}
    world.sync_commands(world.application_id, None, [_command(**ok)])
