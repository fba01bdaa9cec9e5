"""The drawn card pictures kept on disk (cogs/uno/art/cache.py): drawn once per drawing
version, read back whole, drawn again when the file is damaged or can't be written."""

from __future__ import annotations

from pathlib import Path

from cogs.uno.art import art_keys, cached_images, every_card_image
from cogs.uno.art.cache import drawing_version


class CountingDraw:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> dict[str, bytes]:
        self.calls += 1
        return every_card_image()


def test_pictures_are_drawn_once_then_read_from_the_cache(tmp_path: Path) -> None:
    draw = CountingDraw()
    first = cached_images(tmp_path, draw)
    again = cached_images(tmp_path, draw)
    assert draw.calls == 1
    assert again == first
    assert set(again) == set(art_keys())
    assert [p.name for p in tmp_path.iterdir()] == [f"cards-{drawing_version()}.zip"]


def test_a_damaged_cache_file_is_drawn_again_and_replaced(tmp_path: Path) -> None:
    draw = CountingDraw()
    (tmp_path / f"cards-{drawing_version()}.zip").write_bytes(b"not a zip file")
    images = cached_images(tmp_path, draw)
    assert draw.calls == 1
    assert images == every_card_image()
    assert cached_images(tmp_path, draw) == images
    assert draw.calls == 1


def test_a_cache_that_cannot_be_written_still_gives_every_picture(tmp_path: Path) -> None:
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    draw = CountingDraw()
    assert cached_images(blocked / "cache", draw) == every_card_image()
    assert cached_images(blocked / "cache", draw) == every_card_image()
    assert draw.calls == 2
