"""`python -m tools.card_sheets [FOLDER]`: write the card sheets (docs/images by default).

cards.png shows every picture at 128 px, as uploaded; cards-32.png at 32 px, about the
size of an emoji in a message, to check the design still reads there.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cogs.uno.art.sheet import card_sheet


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "docs" / "images"
    folder.mkdir(parents=True, exist_ok=True)
    for name, size, gap in (("cards.png", 128, 8), ("cards-32.png", 32, 4)):
        path = folder / name
        card_sheet(size, gap).save(path, optimize=True)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
