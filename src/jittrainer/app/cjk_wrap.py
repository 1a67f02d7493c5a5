"""Line breaks inside Chinese text.

Rich and Textual wrap at whitespace only, so a paragraph of Chinese (written without spaces) is one long "word": it
is pushed whole onto the next line, leaving a ragged gap, then folded at an arbitrary cell, and a 。 or ： can start
a line. Chinese may break between any two characters, except before closing punctuation and after opening
punctuation. Neither library has a public hook for this, so ``install`` swaps the patterns their wrappers split text
with for ones that make each Chinese character a word of its own, closing punctuation kept on the character before
it and opening punctuation on the one after:

* ``rich._wrap.re_word``, read by ``rich._wrap.words()`` on every call: ``divide_line`` uses it, and Textual's
  ``Content`` wraps through ``divide_line``, so this is what the Markdown, Static and tab panes use;
* ``textual._wrap.re_chunk``: the editor's (TextArea) soft wrap.

If a release moves either pattern, nothing is changed there and Chinese wraps as before; tests/app/test_cjk_wrap.py
renders real widgets, so it notices.
"""

from __future__ import annotations

import re

_CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f"
_CLOSING = "，。；：！？、）」』》”’…〉】〕"
_OPENING = "（「『《“‘〈【〔"
_ASCII_RUN = f"[^\\s{_CJK}{_CLOSING}{_OPENING}]+"
# One word: opening punctuation, then one Chinese character or a run of other text, then closing punctuation. The
# last alternative takes any lone character the others refuse (a stray closing mark at the very start), because
# rich's words() stops at the first position its pattern does not match and would drop the rest of the text.
_WORD = f"(?:[{_OPENING}]*(?:[{_CJK}]|{_ASCII_RUN})[{_CLOSING}]*|\\S)"
# rich's words carry the whitespace around them (r"\s*\S+\s*"); Textual's chunks are words or whitespace runs.
RICH_WORD = re.compile(f"\\s*{_WORD}\\s*")
CHUNK = re.compile(f"{_WORD}\\s*|\\s+")


def _swap(module_name: str, attribute: str, pattern: re.Pattern[str]) -> bool:
    import importlib

    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return False
    if not isinstance(getattr(module, attribute, None), re.Pattern):
        return False
    setattr(module, attribute, pattern)
    return True


def install() -> bool:
    """Make the text panes (Rich) and the editor (Textual) break inside Chinese text. False where this Rich has no
    word pattern to swap, so the panes still wrap Chinese only at spaces."""
    _swap("textual._wrap", "re_chunk", CHUNK)
    return _swap("rich._wrap", "re_word", RICH_WORD)
