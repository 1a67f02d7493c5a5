"""F1 reads as text in both languages (issue 37, item 11): no Markdown mark left over (a "*" after a Chinese
character and before a full-width bracket does not open an emphasis in CommonMark), and no space where a line of
the Chinese source was broken (a soft break is a space to Markdown, and Chinese has none)."""

from __future__ import annotations

import re

import pytest
from apphelpers import make_app, markdown_drawn, plain, wait_until
from textual.widgets import Markdown

SIZES = ((80, 24), (120, 40), (200, 50))
STRAY_SPACE = re.compile(r"[\u4e00-\u9fff，。；：、！？）」”] +[\u4e00-\u9fff（「“]|[\u4e00-\u9fff] +[，。；：、）]")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES, ids=lambda size: "x".join(map(str, size)))
async def test_help_shows_no_markdown_marks_and_no_stray_spaces(size, lang):
    app = make_app(lang=lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await wait_until(pilot, lambda: bool(app.screen.query("#help-text")), what="the help")
        help_text = app.screen.query_one("#help-text", Markdown)
        await wait_until(pilot, lambda: markdown_drawn(help_text), 30, "the help drawn")
        blocks = [plain(b) for b in help_text.query("MarkdownBlock")
                  if not b.query("MarkdownBlock") and type(b).__name__ != "MarkdownFence"]
        text = "\n".join(blocks)
        assert ("id：" if lang == "zh" else "(id ") in text and len(blocks) > 30
        marks = [line for line in text.splitlines() if "*" in line]
        assert not marks, marks[:5]
        if lang == "zh":
            spaces = [m.group(0) for m in STRAY_SPACE.finditer(text)]
            assert not spaces, spaces[:10]
