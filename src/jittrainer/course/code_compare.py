"""What may differ between two editions of the same code: one rule for starters and for every fenced block.

**Comments and docstrings may be translated; code and program output may not.** A Python text
(``starter.<lang>.py``, ``solution.<lang>.py``, a ```` ```python ```` block of a statement, hint or explanation) is
compared as its tokens without comments and without docstrings (a string that is a statement of its own: prose the
learner reads in the editor, the Why tab and "show solution", which the course's code never reads), so a comment may
say anything in any language, move, or take a line of its own, while a changed name, number or string is a
difference. Any other fence (```` ```text ````, or none)
holds what a program prints, which no edition translates, so it is compared as written; prose that explains it goes
outside the fence. Python is compared by tokens, not by its syntax tree, because a block is often a fragment
(``return x`` alone, a half-open call) that does not parse as a module.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass

FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```", re.MULTILINE | re.DOTALL)
PYTHON = frozenset({"python", "py", "python3"})  # fence languages whose comments may be translated
_SKIPPED = (tokenize.COMMENT, tokenize.NL, tokenize.ENCODING)  # NL: a line break inside brackets, or a comment line


@dataclass(frozen=True)
class Block:
    lang: str  # the fence's language, lower case ("" for a bare fence)
    text: str
    line: int  # 1-based line of the opening fence

    @property
    def key(self) -> tuple:
        """What must be the same in every edition."""
        return (self.lang, code_key(self.text, self.lang))


def fenced_blocks(markdown: str) -> list[Block]:
    blocks = []
    for m in FENCE.finditer(markdown):
        info = m.group("info").strip().split()
        blocks.append(Block(info[0].lower() if info else "", m.group("body").strip("\n"),
                            markdown.count("\n", 0, m.start()) + 1))
    return blocks


def code_key(text: str, lang: str = "python") -> tuple:
    """The part of ``text`` that no translation may change: Python's tokens without comments, else every line."""
    if lang in PYTHON:
        tokens = _python_tokens(text)
        if tokens is not None:
            return tokens
    return tuple(line.rstrip() for line in text.strip("\n").splitlines())


def same_code(a: str, b: str, lang: str = "python") -> bool:
    """Two editions of one code text with the same code, whatever their comments say."""
    return code_key(a, lang) == code_key(b, lang)


def _python_tokens(text: str) -> tuple | None:
    """Tokens as ``(type, string)`` without comments and line layout; None when ``text`` cannot be tokenized.

    A fragment that ends inside brackets or a string stops tokenizing at the end of the text: everything before
    it was read, so it still compares. A broken indentation stops in the middle: None, and the block compares as
    written.
    """
    found = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text.strip("\n") + "\n").readline):
            if tok.type not in _SKIPPED:
                found.append((tok.type, tok.string if tok.type != tokenize.NEWLINE else "\n"))
    except tokenize.TokenError:  # "EOF in multi-line statement/string": the whole text was read
        pass
    except (IndentationError, SyntaxError):
        return None
    return tuple(_without_docstrings(found))


def _without_docstrings(tokens: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Drop every string that is a statement of its own (a docstring, or a bare string used as a comment): the
    strings after the start of a statement and before its end."""
    starts = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(tokens):
        j = i
        while j < len(tokens) and tokens[j][0] == tokenize.STRING:
            j += 1
        at_start = i == 0 or tokens[i - 1][0] in starts
        ends = j >= len(tokens) or tokens[j][0] in (tokenize.NEWLINE, tokenize.ENDMARKER)
        if j > i and at_start and ends:
            i = j
            continue
        out.append(tokens[i])
        i += 1
    return out
