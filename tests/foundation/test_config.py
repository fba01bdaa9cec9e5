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
    settings = Settings(_env_file=ROOT / ".env.example")  # type: ignore[call-arg]
    assert settings.discord_token is None
    assert settings.dev_guild_id is None
    assert settings.turn_seconds == 90
    assert settings.database_path == Path("data/uno.db")
    playground = PlaygroundSettings(_env_file=ROOT / ".env.example")  # type: ignore[call-arg]
    assert playground.discord_token is None
    assert playground.playground_port == 8080


def test_playground_settings_read_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYGROUND_PORT", "9000")
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    settings = PlaygroundSettings(_env_file=None)  # type: ignore[call-arg]
    assert settings.playground_port == 9000
    assert settings.discord_token is not None
    monkeypatch.setenv("PLAYGROUND_PORT", "70000")
    with pytest.raises(ValidationError):
        PlaygroundSettings(_env_file=None)  # type: ignore[call-arg]


def test_settings_read_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    monkeypatch.setenv("TURN_SECONDS", "30")
    monkeypatch.setenv("DEV_GUILD_ID", "123456789012345678")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "abc.def.ghi"
    assert "abc.def.ghi" not in repr(settings)
    assert settings.turn_seconds == 30
    assert settings.dev_guild_id == 123456789012345678


def test_out_of_range_turn_seconds_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURN_SECONDS", "2")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_a_turn_timer_under_5_s_only_through_the_test_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TURN_SECONDS", "30")
    monkeypatch.setenv("TEST_TURN_SECONDS", "1")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.turn_seconds == 1
    # Still no way below 1 s, nor a "test" timer as long as a real one.
    for wrong in ("0", "5"):
        monkeypatch.setenv("TEST_TURN_SECONDS", wrong)
        with pytest.raises(ValidationError):
            Settings(_env_file=None)  # type: ignore[call-arg]


def test_without_the_test_setting_turn_seconds_stands(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURN_SECONDS", "30")
    monkeypatch.delenv("TEST_TURN_SECONDS", raising=False)
    assert Settings(_env_file=None).turn_seconds == 30  # type: ignore[call-arg]
