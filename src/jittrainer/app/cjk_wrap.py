"""Line breaks inside Chinese text.

Textual wraps at whitespace only, so a paragraph of Chinese (written without spaces) is one long "word": it is pushed
whole onto the next line, leaving a ragged gap, then folded at an arbitrary cell. Chinese may break between any two
characters except before closing punctuation. Textual has no public hook for this, so ``install`` swaps the pattern
its wrapper splits text with (``textual._wrap.re_chunk``) for one that makes each Chinese character a chunk of its
own, with the punctuation that must not start a line kept on it. If a Textual release moves that pattern, nothing is
changed and Chinese wraps as before; tests/app/test_cjk_wrap.py notices.
"""

from __future__ import annotations

import re

_CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f"
_CLOSING = "，。；：！？、）」』》”’…"
CHUNK = re.compile(f"[{_CJK}][{_CLOSING}]*\\s*|[^\\s{_CJK}]+[{_CLOSING}]*\\s*|\\s+")


def install() -> bool:
    """Make Textual's wrapper break inside Chinese text; False where this Textual has no such pattern to swap."""
    try:
        from textual import _wrap
    except ImportError:
        return False
    current = getattr(_wrap, "re_chunk", None)
    if not isinstance(current, re.Pattern):
        return False
    _wrap.re_chunk = CHUNK
    return True
