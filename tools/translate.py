#!/usr/bin/env python3
"""Fill translations into a .po file: ``tools/translate.py PO_FILE TRANSLATIONS.json``, then ``make catalogs``.

TRANSLATIONS.json is a list of ``{"context": ..., "id": ..., "str": ...}`` (``context`` may be null; for a plural
message ``str`` is a list, one form per plural of the language). A matched entry gets the text and loses its fuzzy
mark; an id that is not in the file is reported and the command fails, so a typo cannot pass silently.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    po_path, items = Path(argv[0]), json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    with open(po_path, "rb") as fh:
        catalog = read_po(fh)
    missing = []
    for item in items:
        message = catalog.get(item["id"], context=item.get("context"))
        if message is None:
            missing.append(item)
            continue
        message.string = tuple(item["str"]) if isinstance(item["str"], list) else item["str"]
        message.flags.discard("fuzzy")
        message.previous_id = ()
        message.previous_context = None
    with open(po_path, "wb") as fh:
        write_po(fh, catalog, width=116, ignore_obsolete=True, include_previous=True, include_lineno=False)
    for item in missing:
        print(f"not in {po_path}: {item.get('context')!r} {item['id']!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
