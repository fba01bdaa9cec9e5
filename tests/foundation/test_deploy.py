"""deploy/uno@.service: one bot process per instance, the instance naming its shards.

Checked with systemd's own `systemd-analyze verify` where it is installed (Debian's
`systemd` package), on a copy whose paths point at this checkout; the keys every
instance needs are checked everywhere.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from config import Settings

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "uno@.service"
INSTALLED_AT = "/opt/uno"


def unit_text(home: Path | str = INSTALLED_AT) -> str:
    return UNIT.read_text(encoding="utf-8").replace(INSTALLED_AT, str(home))


def sections(text: str) -> dict[str, dict[str, list[str]]]:
    """Each section's keys with every value (systemd allows a key more than once)."""
    found: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = found.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return found


def verify(folder: Path, text: str, instance: str = "0-1") -> subprocess.CompletedProcess[str]:
    """`systemd-analyze verify` on `text` installed in `folder` as the template, run as
    one instance; warnings (an unknown key, a bad value) count as failures."""
    folder.mkdir()
    (folder / "uno@.service").write_text(text, encoding="utf-8")
    (folder / f"uno@{instance}.service").symlink_to("uno@.service")
    analyze = shutil.which("systemd-analyze")
    assert analyze is not None
    return subprocess.run(
        [analyze, "verify", "--man=no", str(folder / f"uno@{instance}.service")],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_each_instance_runs_the_shards_it_is_named_after() -> None:
    unit = sections(unit_text())
    service = unit["Service"]
    assert service["Environment"].count("SHARD_IDS=%I") == 1
    assert service["EnvironmentFile"] == ["/etc/uno/uno.env"]  # token, database, count
    assert service["ExecStart"] == ["/opt/uno/.venv/bin/python bot.py"]
    assert service["WorkingDirectory"] == ["/opt/uno"]
    assert service["KillSignal"] == ["SIGTERM"]  # bot.py's clean shutdown
    assert service["Restart"] == ["on-failure"]
    assert service["RestartPreventExitStatus"] == ["2"]  # bot.py: a wrong setting
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]
    assert "%I" in unit["Unit"]["Description"][0]
    # What systemd puts in SHARD_IDS for `uno@0-1` is what the settings accept.
    settings = Settings(_env_file=None, shard_count=4, shard_ids="0-1")
    assert settings.shard_ids == (0, 1)


def test_systemd_accepts_the_unit_and_refuses_a_broken_one(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:  # not installed: the keys above stand
        assert sections(unit_text())["Service"]["ExecStart"]
        return
    good = verify(tmp_path / "good", unit_text(ROOT))
    assert (good.returncode, good.stdout + good.stderr) == (0, "")
    # The check can fail: a misspelt value is only a warning to systemd, a missing
    # program an error; both are refused here.
    typo = verify(tmp_path / "typo", unit_text(ROOT).replace("=on-failure", "=on-falure"))
    assert "restart" in typo.stderr.lower()
    moved = verify(tmp_path / "moved", unit_text(tmp_path / "nowhere"))
    assert moved.returncode != 0
    assert "not executable" in moved.stderr
