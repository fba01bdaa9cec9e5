"""Drawn card pictures kept on disk between starts, under the version of the drawing.

Drawing the 87 pictures costs about a second of CPU at every start (Pillow), and a
bot restarted during a game is slower to answer meanwhile. The pictures change only
when the drawing code or Pillow does, so a start reads them from a file named after a
hash of both, and draws them only when that file is missing, unreadable or incomplete.
A cache that can't be written (a read-only disk) costs the drawing, nothing else.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import zipfile
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path

import PIL

from .catalog import art_keys

log = logging.getLogger(__name__)


@cache
def drawing_version() -> str:
    """A hash of the art package's code and Pillow's version."""
    digest = hashlib.sha256(PIL.__version__.encode())
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


def cached_images(directory: Path, draw: Callable[[], Mapping[str, bytes]]) -> dict[str, bytes]:
    """Every picture by key: from the cache file of this drawing version, or drawn and kept."""
    path = directory / f"cards-{drawing_version()}.zip"
    images = _read(path)
    if images is not None:
        return images
    images = dict(draw())
    _write(path, images)
    return images


def _read(path: Path) -> dict[str, bytes] | None:
    try:
        with zipfile.ZipFile(path) as archive:
            images = {name: archive.read(name) for name in archive.namelist()}
    except FileNotFoundError:
        return None
    except (OSError, zipfile.BadZipFile) as error:
        log.warning("Card picture cache %s unreadable, drawing again: %s", path, error)
        return None
    return images if set(images) == set(art_keys()) else None


def _write(path: Path, images: Mapping[str, bytes]) -> None:
    """Written whole under another name, then renamed: bots starting together never
    read half a file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".part")
        with os.fdopen(handle, "wb") as out, zipfile.ZipFile(out, "w") as archive:
            for key, png in images.items():
                archive.writestr(key, png)
        os.replace(temporary, path)
    except OSError as error:
        log.info("Card pictures not cached in %s: %s", path.parent, error)
