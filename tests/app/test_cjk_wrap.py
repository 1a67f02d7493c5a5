"""Chinese text wraps between characters, not only at spaces (see jittrainer.app.cjk_wrap).

These go through the code the panes really wrap with (Textual's ``Content.wrap``, which calls Rich's
``divide_line``), not through the patterns ``install`` swaps: Rich is not pinned, and a release that stops reading
``rich._wrap.re_word`` at call time must fail here, not pass because the pattern still splits text right.
"""

from __future__ import annotations

from textual.content import Content

from jittrainer.app import cjk_wrap
from jittrainer.i18n import cells

PARAGRAPH = ("`normalize(x)` 应当返回 `(x - mean) / std`，即 jnp.std 默认的 ddof=0，并且每遇到新的输入形状、dtype、"
             "静态值或新的函数，jit 就编译一次。可菜谱一旦交给压力锅，锅就不再需要他：没有盖子可掀（“拍一张锅里的画面”）。")
CLOSING = "，。；：！？、）」』》”"
OPENING = "（「『《“"


def wrapped(text: str, width: int) -> list[str]:
    return [line.plain for line in Content(text).wrap(width)]


def test_chinese_fills_each_line_in_the_panes_wrapper():
    assert cjk_wrap.install(), "this Rich has no rich._wrap.re_word to swap: the panes wrap Chinese only at spaces"
    for width in (30, 41, 60, 76):
        lines = wrapped(PARAGRAPH, width)
        assert "".join(lines).replace(" ", "") == PARAGRAPH.replace(" ", ""), "text was lost or reordered"
        for line, after in zip(lines, lines[1:]):
            # The next line's first character, with the closing punctuation that must stay on it, did not fit:
            # otherwise the line was broken early and the pane shows a gap.
            head = after[0] + "".join(ch for ch in after[1:3] if ch in CLOSING)
            assert cells(line.rstrip()) + cells(head) > width - 1 or not after[0] >= "\u2e80", (width, line, after)
        assert not any(line[0] in CLOSING for line in lines), lines
        assert not any(line.rstrip()[-1] in OPENING for line in lines), lines


def test_english_wraps_as_before():
    cjk_wrap.install()
    text = "The grader runs your code in an isolated worker process, under jax.jit."
    assert wrapped(text, 24) == ["The grader runs your", "code in an isolated", "worker process, under", "jax.jit."]


def test_a_lone_closing_mark_does_not_cut_the_text_short():
    # rich's words() stops at the first place its pattern fails to match: the rest of the text would vanish.
    cjk_wrap.install()
    assert "".join(wrapped("：后面还有字。", 6)) == "：后面还有字。"
