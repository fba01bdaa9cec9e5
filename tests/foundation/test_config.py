"""config.Settings (the bot's) and the playground's settings are what .env.example lists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from config import Settings
from playground.settings import PlaygroundSettings

ROOT = Path(__file__).resolve().parents[2]


def example_keys() -> list[str]:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    return re.findall(r"^([A-Z][A-Z0-9_]*)=", text, flags=re.MULTILINE)


def test_env_example_lists_exactly_the_settings_fields() -> None:
    names = set(Settings.model_fields) | set(PlaygroundSettings.model_fields)
    assert sorted(example_keys()) == sorted(name.upper() for name in names)


def test_every_env_example_entry_has_a_comment() -> None:
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    for index, line in enumerate(lines):
        if re.match(r"^[A-Z][A-Z0-9_]*=", line):
            assert index > 0, line
            assert lines[index - 1].startswith("#"), line


def test_env_example_as_is_loads_with_defaults(tmp_path: Path) -> None:
    settings = Settings(_env_file=ROOT / ".env.example")
    assert settings.discord_token is None
    assert settings.dev_guild_id is None
    assert settings.turn_seconds == 90
    assert settings.database_path == Path("data/uno.db")
    playground = PlaygroundSettings(_env_file=ROOT / ".env.example")
    assert playground.discord_token is None
    assert playground.playground_port == 8080


def test_playground_settings_read_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYGROUND_PORT", "9000")
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    settings = PlaygroundSettings(_env_file=None)
    assert settings.playground_port == 9000
    assert settings.discord_token is not None
    monkeypatch.setenv("PLAYGROUND_PORT", "70000")
    with pytest.raises(ValidationError):
        PlaygroundSettings(_env_file=None)


def test_settings_read_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    monkeypatch.setenv("TURN_SECONDS", "30")
    monkeypatch.setenv("DEV_GUILD_ID", "123456789012345678")
    settings = Settings(_env_file=None)
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "abc.def.ghi"
    assert "abc.def.ghi" not in repr(settings)
    assert settings.turn_seconds == 30
    assert settings.dev_guild_id == 123456789012345678


def test_out_of_range_turn_seconds_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURN_SECONDS", "2")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)


def test_the_request_budget_defaults_to_40_and_must_be_above_0(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert Settings(_env_file=None).request_budget == 40
    monkeypatch.setenv("REQUEST_BUDGET", "75")  # a bot Discord granted more
    assert Settings(_env_file=None).request_budget == 75
    monkeypatch.setenv("REQUEST_BUDGET", "0")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)


def test_a_turn_timer_under_5_s_only_through_the_test_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TURN_SECONDS", "30")
    monkeypatch.setenv("TEST_TURN_SECONDS", "1")
    settings = Settings(_env_file=None)
    assert settings.turn_seconds == 1
    # Still no way below 1 s, nor a "test" timer as long as a real one.
    for wrong in ("0", "5"):
        monkeypatch.setenv("TEST_TURN_SECONDS", wrong)
        with pytest.raises(ValidationError):
            Settings(_env_file=None)


def test_without_the_test_setting_turn_seconds_stands(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURN_SECONDS", "30")
    monkeypatch.delenv("TEST_TURN_SECONDS", raising=False)
    assert Settings(_env_file=None).turn_seconds == 30


def sharded(monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    for name in ("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Settings(_env_file=None)


def refusal(monkeypatch: pytest.MonkeyPatch, **env: str) -> str:
    with pytest.raises(ValidationError) as refused:
        sharded(monkeypatch, **env)
    [error] = refused.value.errors()
    return f"{'.'.join(str(p) for p in error['loc']).upper()}: {error['msg']}"


def test_shards_unset_leave_discord_to_decide(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = sharded(monkeypatch)
    assert (settings.shard_count, settings.shard_ids) == (None, None)
    assert not settings.runs_part_of_the_shards


@pytest.mark.parametrize(
    ("text", "ids"),
    [("0-3", (0, 1, 2, 3)), ("0,2", (0, 2)), (" 5 ", (5,)), ("4-5, 0", (0, 4, 5)), ("1,1", (1,))],
)
def test_shard_ids_read_ranges_and_lists(
    monkeypatch: pytest.MonkeyPatch, text: str, ids: tuple[int, ...]
) -> None:
    settings = sharded(monkeypatch, SHARD_COUNT="6", SHARD_IDS=text)
    assert settings.shard_ids == ids
    assert settings.runs_part_of_the_shards


def test_every_shard_of_the_count_is_the_whole_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not sharded(monkeypatch, SHARD_COUNT="4", SHARD_IDS="0-3").runs_part_of_the_shards
    assert not sharded(monkeypatch, SHARD_COUNT="4").runs_part_of_the_shards


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"SHARD_IDS": "0-1"}, "SHARD_IDS: set SHARD_COUNT too"),
        (
            {"SHARD_COUNT": "4", "SHARD_IDS": "2-4"},
            "SHARD_IDS: names shard 4, but with SHARD_COUNT=4 the shards are 0 to 3",
        ),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "SHARD_IDS: the range 3-1 goes backwards"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0;1"}, "SHARD_IDS: '0;1' is not a shard id"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-99999999"}, "SHARD_IDS: shard ids stop at 65535"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT: Input should be greater than or equal to 1"),
    ],
)
def test_wrong_shards_are_refused_in_plain_words(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], words: str
) -> None:
    assert refusal(monkeypatch, **env).startswith(words)
