"""What the host does to everything that came from a worker before it keeps or shows it.

A worker runs the learner's code, so any text in its frames or its captured output may be hostile: escape
sequences that repaint the terminal (a fake green "PASSED"), C1 controls (``\\x9b`` is a one-byte CSI), bidi
overrides that reorder what is read, lone surrogates (``\\udc9b`` is written to a terminal as the raw byte 0x9b, a
C1 CSI, and makes UTF-8 output invalid), or simply megabytes. Here every string is bounded and its control characters
are shown as visible escapes (``\\x1b``, ``\\u202e``); tabs and newlines stay. The CLI and the app show only what
passed through here.
"""

from __future__ import annotations

import re
from typing import Any

MAX_TEXT = 512 * 1024  # characters kept of any one string (a jaxpr of a huge unrolled loop, the output)
MAX_ITEMS = 4096  # items kept of any one list or object
MAX_DEPTH = 32

# C0 but tab and newline, DEL, C1, the bidi embeddings, overrides, isolates and marks, and lone surrogates (JSON
# decodes "\\udc9b" to one; a pair is decoded to the character it encodes, so none of these is ever half of one).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` bounded to ``limit`` characters with its control characters written out; a Windows line end
    (``\\r\\n``) is kept as a plain newline, a lone ``\\r`` (which moves the cursor back) is written out."""
    if len(text) > limit:
        text = text[:limit] + f"\n[… {len(text) - limit:,} more characters not kept]"
    return _CONTROL.sub(_escape, text.replace("\r\n", "\n"))


def bounded(value: Any, depth: int = 0) -> Any:
    """A decoded JSON value with every string made ``visible`` and every list and object cut to ``MAX_ITEMS``;
    anything nested deeper than ``MAX_DEPTH`` becomes None."""
    if isinstance(value, str):
        return visible(value)
    if depth >= MAX_DEPTH:
        return None
    if isinstance(value, dict):
        return {visible(str(k), 256): bounded(v, depth + 1) for k, v in list(value.items())[:MAX_ITEMS]}
    if isinstance(value, list):
        return [bounded(v, depth + 1) for v in value[:MAX_ITEMS]]
    return value
