"""Everything a learner reads in Chinese mode is Chinese, apart from code, identifiers and the glossary's English.

A string that bypasses the catalogs (an f-string error, a label the worker writes, a library's default) shows in
English in the Chinese edition, and the catalog checks cannot see it because it never reached a catalog. So this
renders what the CLI prints and what the app shows, in Chinese, and flags every English word on a line of Chinese
that is not code, not an identifier the course defines, and not allowed by docs/glossary.md.
"""

from __future__ import annotations

import contextlib
import io
import re

import pytest
from helpers import EXERCISES, REPO

from jittrainer.cli import build_parser, main
from jittrainer.course.drills.model import LEVELS
from jittrainer.course.exercises import load_exercises

HAN = re.compile(r"[\u4e00-\u9fff]")
# An English word: letters only, not part of code (a dotted name, a call, an option, a path, a keyword argument).
WORD = re.compile(r"(?<![\w.\-/`'\"=(\[<{:~$+])([A-Za-z][a-z]{2,})(?![\w.\-(/`'\"=\[~+])")


def glossary_words() -> set[str]:
    text = (REPO / "docs" / "glossary.md").read_text(encoding="utf-8")
    words = set()
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and line.startswith("|"):
            words |= set(re.findall(r"[A-Za-z]+", cells[1]))  # the Chinese column's English (jit, dtype, eager)
    kept = text.split("**Kept in English in Chinese text.**", 1)[1].split("\n\n", 1)[0]
    words |= set(re.findall(r"`([A-Za-z]+)`", kept))
    return {w.lower() for w in words}


def course_identifiers(cli: bool = True) -> set[str]:
    """Names the course (and with ``cli``, the command line) defines, shown as they are: exercise and topic ids,
    command names, choices. The app has no commands to name: there "new" is a word to translate."""
    names = set()
    for ex in load_exercises(EXERCISES):
        names |= set(ex.id.split("_")) | ({ex.topic} if ex.topic else set())
    parsers = [build_parser()] if cli else []
    while parsers:
        parser = parsers.pop()
        for action in parser._actions:
            if not action.option_strings:
                names.add(action.dest)  # a positional's name is what its help line starts with
            choices = getattr(action, "choices", None) or ()
            names |= {str(choice) for choice in choices}
            if isinstance(choices, dict):
                parsers += [sub for sub in choices.values() if hasattr(sub, "_actions")]
    names |= set(LEVELS) if cli else set()  # what --difficulty takes
    topics = (EXERCISES / "topics.toml").read_text(encoding="utf-8")
    names |= set(re.findall(r"^\[topics\.([a-z_]+)\]", topics, re.MULTILINE))
    names |= {part for name in list(names) for part in name.split("_")}
    return {n.lower() for n in names} | {"jittrainer"}


def english_words(text: str, allowed: set[str], every_line: bool = False) -> list[str]:
    """English words on lines of Chinese (on every line with ``every_line``: a placeholder, a title)."""
    found, fenced = [], False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
        if fenced or not (every_line or HAN.search(line)):
            continue
        # code spans, a shell command, a key binding's id (the name a keymap uses)
        prose = re.sub(r"`[^`]*`|\bpip install\b|\bid[:：]\s*[\w-]+", "", line)
        found += [f"{w!r} in {line.strip()[:90]!r}" for w in WORD.findall(prose) if w.lower() not in allowed]
    return found


def test_the_check_flags_english_and_passes_code_and_the_glossary():
    allowed = glossary_words() | course_identifiers()
    assert {"jit", "dtype", "eager", "python", "ctrl"} <= allowed
    assert english_words("jittrainer: no topic called 'nope'（可用：state）", allowed)
    assert english_words("── call 1 ──（第 1 次调用）", allowed)
    assert not english_words("用 `jax.debug.print` 打印 x.mean()，jit 只编译一次（ctrl+r 运行）", allowed)


def cli_output(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out), contextlib.suppress(SystemExit):
        main(["--lang", "zh", *argv])
    return out.getvalue()


CLI = [["--help"], *([name, "--help"] for name in ("list", "show", "check", "run", "watch", "hint", "reset", "new",
                                                   "validate", "doctor", "drill", "interview", "bench")),
       ["list"], ["hint", "99"], ["show", "nope"], ["drill", "--topic", "nope"], ["drill", "--count", "abc"],
       ["drill", "--topics"], ["drill", "--difficulty", "expert"]]


@pytest.mark.parametrize("argv", CLI, ids=" ".join)
def test_the_cli_speaks_chinese(argv):
    text = cli_output(*argv)
    assert HAN.search(text), text
    found = english_words(text, glossary_words() | course_identifiers())
    assert not found, "\n".join(found)


def screen_text(app, *selectors: str) -> str:
    """The screen's text, or only that of the widgets ``selectors`` match (a modal's, not the screen under it)."""
    strips = app.screen._compositor.render_strips()  # private, as Textual's own snapshot plugin reads the screen
    if not selectors:
        return "\n".join(strip.text for strip in strips)
    regions = [w.region.intersection(app.screen.region) for sel in selectors for w in app.screen.query(sel)]
    return "\n".join(strips[y].crop(r.x, r.right).text for r in regions for y in range(r.y, r.bottom))


async def test_the_app_speaks_chinese():
    import sys

    sys.path.insert(0, str(REPO / "tests" / "app"))
    from textual.widgets import Markdown

    from apphelpers import (FIXTURE_EXERCISES, error_verdict, failing_verdict, make_app, markdown_drawn, palette_offers,
                            show_verdict, wait_until)

    shown = {}
    # The verdict panes, with the fixture exercise's hand-made verdicts (its names: double, demo).
    app = make_app(FIXTURE_EXERCISES, lang="zh")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for pane in ("checks", "output", "recompiles", "timing"):
            await show_verdict(pilot, app, failing_verdict("zh"), pane)
            shown[pane] = screen_text(app)
        await show_verdict(pilot, app, error_verdict(), "checks")
        shown["error"] = screen_text(app)
    # The course's own screens: the task, the palette, the help.
    app = make_app(lang="zh")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = app.main_screen
        # the frame around the exercise's own text (which has its code and names): tabs, titles, footer
        shown["frame"] = screen_text(app, "Tabs", "Footer") + "\n" + str(s.panel.border_title)
        await pilot.press("ctrl+p")
        await palette_offers(pilot, app, "", "")  # its list drawn, whatever it lists first
        shown["palette"] = screen_text(app, "CommandInput", "CommandList")
        await pilot.press("escape")
        await pilot.pause()
        s.action_help()
        await wait_until(pilot, lambda: app.screen is not s, what="the help screen")
        await wait_until(pilot, lambda: any(markdown_drawn(m) for m in app.screen.query(Markdown)),
                         what="the help text")
        shown["help"] = screen_text(app, "Markdown")
    allowed = glossary_words() | course_identifiers(cli=False) | {"double", "demo"}
    found = [f"{where}: {w}" for where, text in shown.items()
             for w in english_words(text, allowed, every_line=where in ("frame", "palette"))]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("content", ['{"a":', "[]", '{"schema_version": 99}', '{"schema_version": 2, "exercises": {"x": {"status": 3}}}',
                                     b"\xff\xfe{}"], ids=["not json", "not an object", "newer", "bad field", "bytes"])
def test_a_corrupt_progress_file_is_explained_in_chinese(content, learner_home):
    """Why the progress file could not be read is the learner's language too, not the JSON parser's English."""
    learner_home.mkdir(parents=True, exist_ok=True)
    target = learner_home / "progress.json"
    target.write_bytes(content) if isinstance(content, bytes) else target.write_text(content, encoding="utf-8")
    text = cli_output("list")
    notice = [line for line in text.splitlines() if "进度文件无法读取" in line]
    assert notice, text
    found = english_words(notice[0], glossary_words() | course_identifiers())
    assert not found, "\n".join(found)
