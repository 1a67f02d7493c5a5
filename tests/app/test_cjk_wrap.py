"""Chinese text wraps between characters, not only at spaces (see jittrainer.app.cjk_wrap)."""

from __future__ import annotations

from textual._wrap import compute_wrap_offsets

from jittrainer.app import cjk_wrap

PARAGRAPH = "每道练习讲 jax.jit 的一个陷阱。先读题目标签页，在编辑器里修改代码（你的草稿），评分，再读检查项标签页。"


def lines(text: str, width: int) -> list[str]:
    cuts = [0, *compute_wrap_offsets(text, width, 4), len(text)]
    return [text[a:b] for a, b in zip(cuts, cuts[1:])]


def test_chinese_fills_each_line_and_keeps_closing_punctuation_off_line_starts():
    assert cjk_wrap.install(), "this Textual no longer has the pattern to swap: Chinese wraps only at spaces again"
    wrapped = lines(PARAGRAPH, 30)
    assert wrapped[0].startswith("每道练习讲 jax.jit 的一个")  # no gap after the last space
    for line in wrapped[:-1]:
        assert 26 <= sum(2 if "\u2e80" <= ch <= "\uffef" else 1 for ch in line) <= 30
    assert not any(line[0] in "，。；：！？、）" for line in wrapped)


def test_english_wraps_as_before():
    cjk_wrap.install()
    text = "The grader runs your code in an isolated worker process, under jax.jit."
    assert lines(text, 24) == ["The grader runs your ", "code in an isolated ", "worker process, under ", "jax.jit."]
