"""The pure helpers the grader and the faces lean on, tested directly (not only through whole grades)."""

from __future__ import annotations

import numpy as np
import pytest

from jittrainer.grading.sandbox.capture import CaptureStream, OutputRecorder
from jittrainer.grading.sandbox.checks.values import compare, numbers_in
from jittrainer.i18n import detect, flow, from_locale, normalize, set_language, wrap
from jittrainer.i18n.message import Msg, count, join, msg


# ------------------------------------------------------------------------------------------------- compare


def test_compare_accepts_close_values_and_squeezable_shapes():
    assert compare(np.float32(1.00001), 1.0)[0]
    assert compare(np.ones((1, 3)), np.ones(3))[0]


@pytest.mark.parametrize(("actual", "expected", "words"), [
    (np.ones(3), np.ones(4), "has shape (3,); expected shape (4,)"),
    (np.array([1.0, np.nan]), np.array([1.0, 2.0]), "holds NaN at 1 of 2 positions"),
    (np.array([1.0, 5.0]), np.array([1.0, 2.0]), "is 5 at index [1] where 2 was expected (1 of 2 values differ)"),
    (3.0, 2.0, "is 3 where 2 was expected"),
    ("text", 1.0, "is a str; expected a number"),
    (None, np.ones(2), "is None; expected an array of shape (2,)"),
])
def test_compare_says_what_differs(actual, expected, words):
    ok, why = compare(actual, expected, what=msg("w", "the result"))
    assert not ok and words in str(why) and str(why).startswith("the result ")


def test_numbers_in_reads_decimals_not_dtype_names():
    assert numbers_in("mean=4.25, float32[16] x 1e-3 -2") == [4.25, 16.0, 1e-3, -2.0]
    assert numbers_in("no numbers") == []


# ------------------------------------------------------------------------------------------------- capture


def test_output_is_recorded_per_section_and_capped():
    rec = OutputRecorder(section_cap=10, total_cap=100)
    out = CaptureStream(rec, "<stdout>", 1)
    with rec.section("call 1"):
        out.write("hello\n")
        out.buffer.write(b"bytes\n")
    with rec.section("call 2"):
        out.write("x" * 50)
    with rec.mute():
        out.write("muted")
    out.close()  # closing does nothing: the grader still needs it
    assert not out.closed
    text, cut = rec.combined()
    assert "── call 1 ──\nhello\nbyte" in text and "more characters of output not shown" in text and cut
    assert "muted" not in text


# ------------------------------------------------------------------------------------------------ messages


def test_messages_render_with_counts_lists_and_nested_messages():
    m = msg("k", "{who} gave {n} for {calls}", who=msg("w", "call {i}", i=2), n=count("compile", 3),
            calls=["1", "2", "3"])
    assert str(m) == "call 2 gave 3 compiles for 1, 2 and 3"
    assert str(count("compile", 1)) == "1 compile"
    assert join(["a", "b"], last="or") == "a or b"
    assert Msg.from_dict(m.to_dict()) == m


def test_a_translation_with_a_wrong_field_falls_back_to_english(monkeypatch):
    from jittrainer.i18n import catalogs

    class Broken:
        def pgettext(self, context, text):
            return "{nope} broken"

    monkeypatch.setattr(catalogs, "translations", lambda domain, lang: Broken())
    monkeypatch.setattr("jittrainer.i18n.message.translations", lambda domain, lang: Broken())
    assert msg("k", "{n} fine", n=1).render("zh") == "1 fine"


def test_messages_render_in_chinese_from_the_package_catalog():
    set_language("zh")
    try:
        assert str(count("compile", 3)) != "3 compiles" and "3" in str(count("compile", 3))
        assert join(["a", "b", "c"]) == "a、b 和 c"
        assert join(["1", "2", "3"]) == "1、2、3"  # 第 1、2、3 次调用, not 第 1、2 和 3 次调用
        assert join(["1", "2"], last="or") == "1 或 2"
    finally:
        set_language("en")


@pytest.mark.parametrize(("data", "words"), [({"key": 1, "text": "x"}, "not a message"),
                                              ({"key": "k", "text": "x", "params": {"a": {"b": 1}}}, "plain values")])
def test_malformed_messages_are_refused(data, words):
    with pytest.raises(ValueError, match=words):
        Msg.from_dict(data)


# ------------------------------------------------------------------------------------------------ language


def test_language_order_cli_env_setting_locale():
    assert detect("zh", env={"JITTRAINER_LANG": "en"}) == "zh"
    assert detect(None, "en", env={"JITTRAINER_LANG": "zh_CN.UTF-8"}) == "zh"
    assert detect(None, "zh", env={"LANG": "en_US.UTF-8"}) == "zh"
    assert detect(None, None, env={"LANGUAGE": "fr:zh_TW:en", "LANG": "en_US"}) == "zh"
    assert detect(None, None, env={"LC_ALL": "C", "LANG": "zh_CN"}) == "en"  # the first set variable decides
    assert detect(None, None, env={"LC_MESSAGES": "zh_CN.UTF-8"}) == "zh"
    assert from_locale({}) is None and normalize("POSIX") is None and normalize("zh-Hans") == "zh"


def test_chinese_text_flows_and_wraps_by_cells():
    assert flow("第一行\n第二行\nthen English\nmore") == "第一行第二行 then English more"
    lines = wrap("静态形状：追踪期间每个数组都有固定的形状，但参数的值未知", 20)
    assert all(sum(2 for _ in line) <= 22 for line in lines) and not lines[1].startswith("，")


def test_soft_breaks_between_chinese_characters_are_removed_from_markdown():
    from jittrainer.i18n import join_cjk_breaks

    text = ("# 标题\n正文第一行，\n接着第二行。Then English\nwraps with a space.\n\n- 列表项\n  继续\n- 第二项\n\n"
            "```python\n# 注释\n# 第二行\n```\n")
    joined = join_cjk_breaks(text)
    assert "正文第一行，接着第二行。Then English\nwraps" in joined  # Chinese joined; English keeps its break
    assert joined.startswith("# 标题\n正文")  # a heading is never joined to its paragraph
    assert "- 列表项继续\n- 第二项" in joined  # a continuation joins, a new item does not
    assert "# 注释\n# 第二行" in joined  # code is left alone
    assert join_cjk_breaks("one\ntwo") == "one\ntwo"


def test_a_soft_break_beside_chinese_punctuation_leaves_no_space():
    from jittrainer.i18n import join_cjk_breaks

    # A renderer would show "、 select_n" and "一个： jax.debug.print": Chinese puts no space by its punctuation.
    joined = join_cjk_breaks("有 `iota`、`lt`、\n`select_n` 和 `reduce_sum`\n——填充。JAX 正好有一个：\njax.debug.print")
    assert joined == "有 `iota`、`lt`、`select_n` 和 `reduce_sum`——填充。JAX 正好有一个：jax.debug.print"
    assert join_cjk_breaks("- 一项：\n- 另一项") == "- 一项：\n- 另一项"  # a new item is not joined


def test_a_traceback_heading_is_shown_in_the_learners_language():
    from jittrainer.grading.verdict import ErrorInfo

    error = ErrorInfo("ValueError", "bad", 3, traceback='Traceback (your code only):\n  File "x.py", line 3\nValueError')
    assert error.shown_traceback() == error.traceback
    set_language("zh")
    try:
        assert error.shown_traceback().startswith("回溯（只含你的代码）：\n  File \"x.py\", line 3")
        assert ErrorInfo("E", "m", traceback="raw text").shown_traceback() == "raw text"
    finally:
        set_language("en")
