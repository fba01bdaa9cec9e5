"""Extract every player-facing string into the catalogues: `python -m tools.catalogue`.

Reads `t(...)`, `tn(...)` and `N_(...)` in cogs/, and the refusals the engine
raises (`WrongMoment("...")` and its kin, plain English there) in engine/;
writes the template `messages.pot` and brings every language's `messages.po`
up to date: new strings come in untranslated (English: filled from the
msgids, plural forms included), strings gone from the code leave.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from cogs.uno.i18n.l10n import DOMAIN, ENGLISH, LOCALES

ROOT = Path(__file__).resolve().parents[1]
# The engine's refusals are its exceptions' first argument (engine/errors.py).
REFUSALS = (
    "IllegalAction",
    "UnknownPlayer",
    "NotYourTurn",
    "WrongMoment",
    "CardNotInHand",
    "CardDoesNotMatch",
    "MatchOver",
)
KEYWORDS: dict[str, Any] = {
    "t": None,
    "N_": None,
    "tn": (1, 2),
    "NC_": ((1, "c"), 2),
    **{name: None for name in REFUSALS},
}
SOURCES = ("cogs", "engine")
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
# Written out rather than left to Babel's locale data, so the rule is in the file.
PLURAL_FORMS = {
    "hr": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
    "(n%100<10 || n%100>=20) ? 1 : 2);",
    "en": "nplurals=2; plural=(n != 1);",
}
# Fixed, so re-extracting unchanged code changes no file (and branches don't conflict on it).
STAMP = datetime(2026, 12, 1, tzinfo=UTC)
HEADER = "# {name} words of the UNO bot.\n# Update with `make catalogue` (README, Languages).\n"


def extract() -> Catalog:
    """The template: every marked string of cogs/ and engine/, with where it is used."""
    template = Catalog(project="uno-bot", version="1", fuzzy=False)
    template.header_comment = HEADER.format(name="Template of the")
    template.creation_date = template.revision_date = STAMP
    template.last_translator = template.language_team = "UNO bot"
    template.msgid_bugs_address = ""
    for folder in SOURCES:
        found = extract_from_dir(
            ROOT / folder,
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=("Translators:",),
            strip_comment_tags=True,
        )
        for filename, line, message, comments, context in found:
            where = [(f"{folder}/{filename}", line)]
            template.add(message, None, where, auto_comments=comments, context=context)
    return template


def catalogue_path(code: str) -> Path:
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(code: str) -> Catalog:
    with catalogue_path(code).open("rb") as source:
        return read_po(source, locale=code)


def _write(path: Path, catalog: Catalog, *, locations: bool = False) -> None:
    """Write a catalogue; only the template says where each string is used (line
    numbers move with every edit: in the languages' files they would only conflict)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as target:
        write_po(
            target,
            catalog,
            width=88,
            no_location=not locations,
            sort_output=not locations,
            ignore_obsolete=True,
            include_previous=False,
        )


def update(template: Catalog, codes: Iterable[str]) -> None:
    """Bring each language's catalogue in line with `template` (no fuzzy guesses)."""
    for code in codes:
        path = catalogue_path(code)
        catalog = read(code) if path.exists() else Catalog(locale=code, domain=DOMAIN)
        # A copy each: Babel adds the template's own Message objects to the catalogue.
        catalog.update(copy.deepcopy(template), no_fuzzy_matching=True)
        _headers(catalog, code)
        if code == ENGLISH:
            _fill_english(catalog)
        _write(path, catalog)


def _headers(catalog: Catalog, code: str) -> None:
    name = catalog.locale.english_name if catalog.locale is not None else code
    catalog.header_comment = HEADER.format(name=name)
    catalog.project, catalog.version = "uno-bot", "1"
    catalog.fuzzy = False
    catalog.creation_date = catalog.revision_date = STAMP
    catalog.last_translator = catalog.language_team = "UNO bot"
    catalog.msgid_bugs_address = ""
    if code in PLURAL_FORMS:
        catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[code])]


def _fill_english(catalog: Catalog) -> None:
    """English says what the msgids say; its plurals still come from the catalogue."""
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            message.string = (message.id[0], message.id[1])
        else:
            message.string = message.id


def main(argv: list[str]) -> int:
    template = extract()
    _write(TEMPLATE, template, locations=True)
    codes = argv or sorted(p.name for p in LOCALES.iterdir() if p.is_dir())
    update(template, codes if ENGLISH in codes else [ENGLISH, *codes])
    print(f"{len(template)} strings in {TEMPLATE.relative_to(ROOT)}; updated {', '.join(codes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
