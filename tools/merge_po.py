#!/usr/bin/env python3
"""Resolve a conflicted .po after a merge: ``tools/merge_po.py PO_FILE`` (run ``make catalogs`` afterwards).

Takes our side of the file (``git show :2:PO``), then fills every message that is untranslated or fuzzy on our
side with the other side's translation (``git show :3:PO``) when it has one, and writes the result in place. The
.mo is rebuilt by ``make catalogs``.
"""

from __future__ import annotations

import io
import subprocess
import sys

from babel.messages.pofile import read_po, write_po


def side(path: str, stage: int):
    data = subprocess.run(["git", "show", f":{stage}:{path}"], capture_output=True, check=True).stdout
    return read_po(io.BytesIO(data))


def main(argv: list[str]) -> int:
    path = argv[0]
    ours, theirs = side(path, 2), side(path, 3)
    for message in theirs:
        if not message.id or not message.string or message.fuzzy:
            continue
        mine = ours.get(message.id, context=message.context)
        if mine is None:
            ours.add(message.id, message.string, context=message.context, auto_comments=message.auto_comments,
                     locations=message.locations, flags=message.flags)
        elif not mine.string or mine.fuzzy or (isinstance(mine.string, tuple) and not all(mine.string)):
            mine.string = message.string
            mine.flags.discard("fuzzy")
    with open(path, "wb") as fh:
        write_po(fh, ours, width=116, ignore_obsolete=True, include_previous=True, include_lineno=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
