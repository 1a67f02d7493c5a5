"""What the CLI prints reads as terminal text in Chinese: whole paragraphs, one kind of colon, aligned columns."""

from __future__ import annotations

import re

import pytest
from helpers import EXERCISES

from jittrainer.cli import main
from jittrainer.course.exercises import load_exercises
from jittrainer.i18n import cells

HAN = re.compile(r"[\u3400-\u9fff]")
BLOCK_START = re.compile(r"\s*([-*+]|\d+[.)])\s|\s*(#|>|\||```|~~~)")


def printed(capsys, *argv: str) -> str:
    capsys.readouterr()
    code = main(["--lang", "zh", *argv])
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def broken_paragraphs(text: str) -> list[str]:
    """Consecutive lines of one paragraph or list item: the second neither starts a block nor follows a blank line,
    so a terminal shows a sentence cut where the source line ended."""
    found, fenced = [], False
    lines = text.split("\n")
    for line, after in zip(lines, lines[1:]):
        if line.strip().startswith(("```", "~~~")):
            fenced = not fenced
        if fenced or not line.strip() or not after.strip() or BLOCK_START.match(after) or \
                line.lstrip().startswith(("#", "|", ">")) or line.startswith("    ") or after.strip() == "---":
            continue
        found.append(f"{line[-30:]!r}⏎{after[:30]!r}")
    return found


def test_show_prints_each_chinese_paragraph_on_one_line(capsys):
    exercises = [ex for ex in load_exercises(EXERCISES) if ex.translated("statement", "zh")]
    assert len(exercises) >= 30
    problems = []
    for ex in exercises:
        out = printed(capsys, "show", ex.id).split("\n---\n")[0]
        problems += [f"{ex.id}: {p}" for p in broken_paragraphs(out)]
    assert not problems, f"{len(problems)} soft breaks printed as line breaks:\n" + "\n".join(problems[:20])


def test_show_keeps_code_blocks_and_lists_as_written(capsys):
    out = printed(capsys, "show", "traced_if")
    assert "\n```\njax.errors.TracerBoolConversionError" in out  # a fence's lines are not joined
    items = [line for line in out.splitlines() if line.startswith("- ")]
    assert len(items) >= 6 and all(HAN.search(item) for item in items)
    assert "  - `delta > 0` 时返回" in out  # a nested item stays nested


def test_show_joins_chinese_and_latin_text_as_the_texts_write_them(capsys):
    out = printed(capsys, "show", "black_box_print")
    # the source breaks this sentence after 把你的, before Python: a space between Chinese and Latin, none at 。
    assert "（tracer，只有形状和 dtype，没有值）把你的 Python 代码**运行一遍**" in out
    assert "没有值）把你的" in out  # no space after full-width punctuation


def test_hints_are_printed_whole(capsys):
    out = printed(capsys, "hint", "unrolled_loop", "--level", "2")
    assert not broken_paragraphs(out.split("\n\n", 1)[1]), out


@pytest.mark.parametrize("argv", [["--help"], ["show", "--help"], ["drill", "--help"], ["check", "--help"]])
def test_help_headings_end_in_a_full_width_colon(capsys, argv):
    with pytest.raises(SystemExit):
        main(["--lang", "zh", *argv])
    out = capsys.readouterr().out
    assert out.startswith("用法：")
    headings = [line for line in out.splitlines() if line.endswith(("：", ":")) and not line.startswith(" ")]
    assert headings and all(h.endswith("：") for h in headings if HAN.search(h)), headings


def test_doctor_aligns_its_values_by_terminal_cells(capsys, monkeypatch):
    from jittrainer.grading.host import tasks

    # The worker probe imports jax in a child process: what is under test is the table, so the probe fails fast.
    monkeypatch.setattr(tasks, "probe", lambda: type("Outcome", (), {"ok": False, "error": "skipped"})())
    capsys.readouterr()
    main(["--lang", "zh", "doctor"])
    rows = [line for line in capsys.readouterr().out.splitlines() if "  " in line]
    starts = {cells(line[: len(line) - len(line.split("  ", 1)[1].lstrip())]) for line in rows}
    assert any(HAN.search(line.split("  ", 1)[0]) for line in rows) and len(rows) >= 8
    assert len(starts) == 1, rows
