"""House style of the Chinese edition that a machine can check (issue 24, the native reader's second round).

Each rule here is a finding of that review that had been fixed once by hand and could drift back: one title for the
last hint tier (four were in use), Chinese comments in the Chinese texts' code blocks, Chinese quotation marks in
Chinese prose, no label glued to an ASCII colon in code (下一题: , 建议: ), no opening bracket left at the end of a
wrapped line, and one heading for every explanation (the tab's word, 原理).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import REPO

from jittrainer.i18n import wrap

ROOTS = [REPO / "exercises", REPO / "packs", REPO / "src" / "jittrainer"]
HAN = re.compile(r"[\u4e00-\u9fff]")
FENCE = re.compile(r"```[^\n]*\n(.*?)```", re.S)


def zh_markdown(name: str) -> list[Path]:
    return sorted(p for root in ROOTS for p in root.rglob(name) if "fixtures" not in p.parts)


def prose(markdown: str) -> str:
    """The Markdown without its code: fenced blocks and `spans` (a span may run over a soft break)."""
    markdown = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), markdown, flags=re.S)
    return re.sub(r"`[^`]*`", "C", markdown)


def hint_titles(markdown: str) -> list[str]:
    return [re.sub(r"^\d+\.\s*", "", line[3:].strip()) for line in markdown.splitlines() if line.startswith("## ")]


def test_the_texts_are_found():
    assert len(zh_markdown("hints.zh.md")) >= 32
    assert len(zh_markdown("explanation.zh.md")) >= 32
    assert any(p.name.endswith(".tmpl") for p in zh_markdown("*.zh.md.tmpl"))


def test_the_last_hint_tier_has_one_title_in_chinese():
    # English says "Nearly there" at every tier 3; Chinese said it four ways (快完成了, 差不多了, 就差一步, 就差一点).
    files = zh_markdown("hints.zh.md") + zh_markdown("hints.zh.md.tmpl")
    titles = {p: hint_titles(p.read_text(encoding="utf-8")) for p in files}
    assert all(len(t) == 3 for t in titles.values()), {str(p): t for p, t in titles.items() if len(t) != 3}
    last = {t[2] for t in titles.values()}
    assert last == {"快完成了"}, {str(p.relative_to(REPO)): t[2] for p, t in titles.items() if t[2] != "快完成了"}


def test_every_explanation_opens_with_the_tabs_word():
    # The app's tab is 原理; the headings had been 为什么这样有效 and 为什么这样可行.
    files = zh_markdown("explanation.zh.md") + zh_markdown("explanation.zh.md.tmpl")
    wrong = {str(p.relative_to(REPO)): p.read_text(encoding="utf-8").splitlines()[0] for p in files
             if p.read_text(encoding="utf-8").splitlines()[0] != "# 原理"}
    assert not wrong, wrong


def english_comments(markdown: str) -> list[str]:
    found = []
    for block in FENCE.findall(markdown):
        for line in block.splitlines():
            comment = re.search(r"#\s*(.*)$", line)
            if comment and re.search(r"[A-Za-z]{3}", comment.group(1)) and not HAN.search(comment.group(1)):
                found.append(line.strip())
    return found


def test_an_english_comment_in_a_code_block_is_found():
    assert english_comments("```python\nx = 1  # warm-up\ny = 2  # 预热\n```\n") == ["x = 1  # warm-up"]


def test_code_in_chinese_texts_has_chinese_comments():
    # The zh starters translate their comments; the hints' code blocks had "# compile and run once, outside the clock".
    found = {str(p.relative_to(REPO)): english_comments(p.read_text(encoding="utf-8"))
             for p in zh_markdown("*.zh.md")}
    found = {p: lines for p, lines in found.items() if lines}
    assert not found, found


def ascii_quotes(markdown: str) -> list[str]:
    return [line.strip() for line in prose(markdown).splitlines() if '"' in line and HAN.search(line)]


def test_ascii_quotes_are_found_in_prose_only():
    assert ascii_quotes('对一个"求本行平方和"的函数') == ['对一个"求本行平方和"的函数']
    assert ascii_quotes('写成 `static_argnames="rows"`，或者\n`f(mode="fill",\nx)` 也行') == []


def test_chinese_prose_uses_chinese_quotation_marks():
    found = {str(p.relative_to(REPO)): ascii_quotes(p.read_text(encoding="utf-8")) for p in zh_markdown("*.zh.md")}
    found = {p: lines for p, lines in found.items() if lines}
    assert not found, found


# _("Next") + ": " showed 下一题: in Chinese; a label and its colon are one message, translated whole.
GLUED_COLON = re.compile(r"""_\(\s*["'][^"']*["']\s*\)\s*\+\s*["']:""")


def test_no_label_is_glued_to_an_ascii_colon():
    assert GLUED_COLON.search('x = _("Next") + ": "')
    found = [f"{p.relative_to(REPO)}:{n}" for p in sorted((REPO / "src" / "jittrainer").rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if GLUED_COLON.search(line)]
    assert not found, found


@pytest.mark.parametrize("text", ["把它设为静态参数（fori_loop 随之变成 scan）再说", "改掉了存下的键（jax-ml/jax#13992）",
                                  "对一个“求本行平方和”的函数做 pmap"])
def test_a_wrapped_line_never_ends_in_an_opening_bracket(text):
    for width in range(8, 40):
        lines = wrap(text, width)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        assert not any(line[-1] in "（“《‘「『" for line in lines), (width, lines)


WIDE = "\u4e00-\u9fff\uff00-\uffef\u3000-\u303f"


def ascii_quoted(text: str) -> bool:
    """Chinese quoted with ASCII marks ("每个设备一项"), or a sentence or placeholder quoted so beside Chinese
    (警告："Some donated buffers…"：). A quoted name in code ("mean", static_argnames="rows") is left alone."""
    for m in re.finditer(r'"([^"]*)"', text):
        inside, before, after = m.group(1), text[m.start() - 1:m.start()], text[m.end():m.end() + 1]
        beside_chinese = bool(re.match(f"[{WIDE}]", before) or re.match(f"[{WIDE}]", after))
        if re.search(f"[{WIDE}]", inside) or beside_chinese and (" " in inside or re.fullmatch(r"\{\w+\}", inside)):
            return True
    return False


def test_ascii_quotes_are_found_in_messages():
    assert ascii_quoted('本练习考的是 pmap "每个设备一项"的规则')
    assert ascii_quoted('发出了警告："{text}"：某个') and ascii_quoted('警告："Some donated buffers"：某个')
    assert not ascii_quoted('状态是一个含有 "mean"（float32[D]）的字典') and not ascii_quoted('写 static_argnames="rows"')


def catalog_quotes() -> list[str]:
    from babel.messages.pofile import read_po

    found = []
    for path in sorted(p for root in ROOTS for p in root.rglob("zh/LC_MESSAGES/*.po")):
        with open(path, "rb") as fh:
            for message in read_po(fh):
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                found += [f"{path.relative_to(REPO)}: {s[:70]!r}" for s in strings if s and ascii_quoted(s)]
    return found


def test_catalogs_quote_chinese_with_chinese_marks():
    found = catalog_quotes()
    assert not found, "\n".join(found)
