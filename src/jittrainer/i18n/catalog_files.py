"""A gettext catalog written without Babel: the ``.po`` a translator edits and the ``.mo`` gettext reads, for
``jittrainer new`` (a scaffold ships its Chinese catalog wherever jittrainer runs; ``make catalogs`` needs the dev
extra). Plain messages and plural ones, each with its context; plural forms as Chinese has them (one form)."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

from jittrainer.files import atomic_write_bytes, atomic_write_text

HEADER = ("Project-Id-Version: {project}\nLanguage: {lang}\nMIME-Version: 1.0\n"
          "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n"
          "Plural-Forms: nplurals=1; plural=0;\n")


@dataclass(frozen=True)
class Entry:
    context: str
    text: str
    translation: str  # "" when not translated yet
    plural: str | None = None


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\n", "\\n")
    return f'"{escaped}"'


def po_text(entries: list[Entry], project: str, lang: str) -> str:
    out = ["msgid \"\"", "msgstr \"\"", *(_quote(line + "\n") for line in
                                         HEADER.format(project=project, lang=lang).splitlines()), ""]
    for entry in entries:
        flags = "#, python-brace-format" if "{" in entry.text else ""
        out += [flags] if flags else []
        out += [f"msgctxt {_quote(entry.context)}", f"msgid {_quote(entry.text)}"]
        if entry.plural is not None:
            out += [f"msgid_plural {_quote(entry.plural)}", f"msgstr[0] {_quote(entry.translation)}"]
        else:
            out.append(f"msgstr {_quote(entry.translation)}")
        out.append("")
    return "\n".join(out)


def mo_bytes(entries: list[Entry], project: str, lang: str) -> bytes:
    """GNU .mo, as ``msgfmt`` writes it (no hash table): the translated entries and the header."""
    pairs = {b"": HEADER.format(project=project, lang=lang).encode("utf-8")}
    for entry in entries:
        if not entry.translation:
            continue
        key = f"{entry.context}\x04{entry.text}" + (f"\x00{entry.plural}" if entry.plural is not None else "")
        pairs[key.encode("utf-8")] = entry.translation.encode("utf-8")
    keys = sorted(pairs)
    ids = b"".join(k + b"\x00" for k in keys)
    strs = b"".join(pairs[k] + b"\x00" for k in keys)
    n = len(keys)
    start = 7 * 4 + 16 * n  # the header, then the two tables of (length, offset)
    offsets, pos = [], start
    for k in keys:
        offsets += [len(k), pos]
        pos += len(k) + 1
    trans_offsets, pos = [], start + len(ids)
    for k in keys:
        trans_offsets += [len(pairs[k]), pos]
        pos += len(pairs[k]) + 1
    header = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, 0)
    return header + struct.pack(f"{2 * n}i", *offsets) + struct.pack(f"{2 * n}i", *trans_offsets) + ids + strs


def write_catalog(localedir: Path, lang: str, domain: str, entries: list[Entry], project: str) -> Path:
    """``localedir/<lang>/LC_MESSAGES/<domain>.po`` and ``.mo``; returns the .po's path."""
    folder = Path(localedir) / lang / "LC_MESSAGES"
    po = folder / f"{domain}.po"
    atomic_write_text(po, po_text(entries, project, lang))
    atomic_write_bytes(folder / f"{domain}.mo", mo_bytes(entries, project, lang))
    return po
