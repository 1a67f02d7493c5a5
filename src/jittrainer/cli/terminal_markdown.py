"""Markdown source made fit to print on a terminal: each paragraph and list item on one line.

The texts are written with line breaks every ~116 characters, and a Markdown renderer treats those as spaces. A
terminal prints them as they are, so without a renderer a Chinese sentence stops mid-way wherever the source line
ended (``…把你的⏎Python 代码``). Joining the soft breaks and letting the terminal wrap gives whole lines; code blocks,
headings, tables and quotes keep their lines, and each list item stays an item.
"""

from __future__ import annotations

import re

_WIDE = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f"
_WIDE_PUNCT = "\u3000-\u303f\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65“”‘’…—"
_STANDALONE = re.compile(r"\s*(#|>|\||(?:-{3,}|\*{3,}|_{3,})\s*$|<)")
_LIST_ITEM = re.compile(r"\s*([-*+]|\d+[.)])\s+\S")
_FENCE = re.compile(r"\s*(```|~~~)")


def _joiner(left: str, right: str) -> str:
    """What goes between two joined lines: nothing beside Chinese punctuation or between two Chinese characters
    (Chinese has no spaces), a space otherwise (the texts put one between Chinese and Latin text, as a renderer
    does at a soft break)."""
    a, b = left[-1], right[0]
    if re.match(f"[{_WIDE_PUNCT}]", a) or re.match(f"[{_WIDE_PUNCT}]", b):
        return ""
    if re.match(f"[{_WIDE}]", a) and re.match(f"[{_WIDE}]", b):
        return ""
    return " "


def join_soft_breaks(markdown: str) -> str:
    out: list[str] = []
    fenced = False
    joinable = False  # the last line out is a paragraph's or a list item's, and the next may continue it
    previous_blank = True
    for line in markdown.split("\n"):
        stripped = line.strip()
        if _FENCE.match(line):
            fenced = not fenced
            out.append(line)
            joinable = False
        elif fenced or not stripped:
            out.append(line)
            joinable = False
        elif previous_blank and line.startswith("    ") and not (out and out[-1].strip() == "" and _in_list(out)):
            out.append(line)  # an indented code block
            joinable = False
        elif _STANDALONE.match(line):
            out.append(line)
            joinable = False
        elif _LIST_ITEM.match(line):
            out.append(line.rstrip())
            joinable = True
        elif joinable and not out[-1].endswith(("  ", "\\")):
            out[-1] = out[-1] + _joiner(out[-1], stripped) + stripped
        else:
            out.append(line.rstrip())
            joinable = True
        previous_blank = not stripped and not fenced
    return "\n".join(out)


def _in_list(out: list[str]) -> bool:
    """Whether the paragraph before the blank line that ends ``out`` was a list item (its indented lines continue
    the list, they are not code)."""
    for line in reversed(out[:-1]):
        if line.strip():
            return bool(_LIST_ITEM.match(line)) or line.startswith("  ")
    return False


_INLINE_CODE = re.compile(r"`([^`\n]+)`")
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")
_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")


def render_for_terminal(markdown: str, style) -> str:
    """Markdown as a terminal shows text, not as its source: soft breaks joined (``join_soft_breaks``), headings and
    **strong** text bold, `code` without its backticks (in colour where the terminal has it), a fenced block's code
    indented under the text without its fences, a link as its text and address. Where a terminal hint, advice or
    review reads best as a document, not as the Markdown it was written in (``watch``'s h and a, ``hint``)."""
    out: list[str] = []
    fenced = False
    for line in join_soft_breaks(markdown).split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            out.append("    " + line if line.strip() else "")
            continue
        heading = _HEADING.match(line)
        if heading:
            out.append(style.bold(render_inline(heading.group(2), style)))
            continue
        out.append(render_inline(line, style))
    return "\n".join(out).strip("\n")


def render_inline(text: str, style) -> str:
    """One line of Markdown (a title) as terminal text."""
    text = _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})", text)
    parts = _INLINE_CODE.split(text)  # even: prose, odd: code (left as written)
    for n in range(0, len(parts), 2):
        prose = _STRONG.sub(lambda m: style.bold(m.group(1)), parts[n])
        parts[n] = _EMPHASIS.sub(lambda m: m.group(1), prose)
    for n in range(1, len(parts), 2):
        parts[n] = style(parts[n], "36")
    return "".join(parts)
