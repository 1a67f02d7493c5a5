"""One vocabulary in the Chinese edition: the variants ``docs/glossary.md`` forbids appear in no Chinese text.

A native reader found "eager" written four ways, one of them (即时执行) reading as its opposite, and "lowering" as
"downgrade"; a term drifts back whenever someone writes new text, so the glossary's table is the rule and this test
applies it to every Chinese text a learner can be shown. A variant is a word or, written ``/…/``, a pattern for a
whole family of spellings ("bake in" came back as 烙进, 烧了进去, 烤了进去, 烤着 after the words were forbidden), and
the sweep reads every Chinese text in the checkout, so new exercises and cards are covered when they land.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from helpers import REPO

pytest.importorskip("babel")
from babel.messages.pofile import read_po  # noqa: E402

GLOSSARY = REPO / "docs" / "glossary.md"
PACKAGE = REPO / "src" / "jittrainer"


def forbidden_variants() -> dict[str, str]:
    """Each forbidden variant → the term to write instead, from the glossary's "Enforced terms" table."""
    text = GLOSSARY.read_text(encoding="utf-8").split("## Enforced terms", 1)[1]
    variants = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[2].startswith("`"):
            continue
        for variant in re.findall(r"`([^`]+)`", cells[2]):
            variants[variant] = cells[1]
    return variants


def pattern(variant: str) -> re.Pattern[str]:
    if len(variant) > 2 and variant.startswith("/") and variant.endswith("/"):
        return re.compile(variant[1:-1])  # a family of spellings, as the glossary writes it
    # A soft break or a stray space may fall inside a term in the Markdown and .po sources, so any run of
    # whitespace (or none) may sit between its characters.
    return re.compile(r"\s*".join(re.escape(ch) for ch in variant.replace(" ", "")))


HAN = re.compile(r"[\u4e00-\u9fff]")


def python_strings(path: Path) -> str:
    """The string literals with Chinese in them of a Python file (a template's translations, a message's words)."""
    import ast

    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError):
        return ""
    return "\n".join(node.value for node in ast.walk(tree)
                     if isinstance(node, ast.Constant) and isinstance(node.value, str) and HAN.search(node.value))


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _zh_strings(value) -> list[str]:
    """The strings under every ``zh`` key of a TOML file: a card's ``[zh]``, a manifest's ``[translations.zh]``."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (_strings(v) if k == "zh" else _zh_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _zh_strings(v)]
    return []


def chinese_texts() -> dict[str, str]:
    """Every Chinese text shipped in this checkout, keyed by where it is (for the failure message)."""
    texts = {}
    roots = [REPO / "exercises", REPO / "packs", PACKAGE, REPO / "docs"]
    for root in roots:
        for path in sorted(root.rglob("*")):
            name = path.name
            if name.endswith((".zh.md", ".zh.py", ".zh.md.tmpl", ".zh.py.tmpl")):
                texts[str(path.relative_to(REPO))] = path.read_text(encoding="utf-8")
            elif name.endswith(".po") and "/zh/" in path.as_posix():
                with open(path, "rb") as fh:
                    catalog = read_po(fh)
                for message in catalog:
                    strings = message.string if isinstance(message.string, tuple) else (message.string,)
                    ident = message.id if isinstance(message.id, str) else message.id[0]
                    texts[f"{path.relative_to(REPO)}: {ident[:60]!r}"] = "\n".join(s for s in strings if s)
            elif path.suffix == ".toml":
                data = tomllib.loads(path.read_text(encoding="utf-8"))
                texts[str(path.relative_to(REPO)) + " [zh]"] = "\n".join(_zh_strings(data))
            elif path.suffix == ".py" and "__pycache__" not in path.parts:
                texts[str(path.relative_to(REPO)) + " (strings)"] = python_strings(path)
    return texts


def variants_in(texts: dict[str, str], variants: dict[str, str]) -> list[str]:
    """Each place a variant is written (once, however many of the glossary's entries catch it)."""
    found = []
    for where, text in texts.items():
        spans: list[tuple[int, int]] = []
        for variant, term in variants.items():
            for match in pattern(variant).finditer(text):
                if any(match.start() < end and start < match.end() for start, end in spans):
                    continue
                spans.append(match.span())
                found.append(f"{where}: {match.group(0)!r} → write {term}")
    return found


def test_the_glossary_table_is_read():
    variants = forbidden_variants()
    # The table is the rule: if its format drifts so that nothing is read, every other check here passes vacuously.
    assert {"即时执行", "降级", "黑匣子", "烤进"} <= set(variants)
    # the second round of the native review (issue 24)
    assert {"略过末尾", "大声失败", "就地", "日志器", "值得带走", "简而言之", "为什么这样可行", "闭包住"} <= set(variants)
    assert variants["即时执行"].startswith("eager 模式")


# What a native reader found written instead of the glossary's word (issue 37, item 13), each in its sentence.
FOUND_VARIANTS = [
    "它们被烙进编译好的程序", "每个程序都把自己的学习率当作常量烧了进去", "同样把字段烤了进去", "里面烤着那个对象的值",
    "jit 把被闭包捕获的数组作为常量嵌入程序", "和参考解一样精简", "在工作进程里、同样的限制下", "再沿 mesh 轴用 lax.psum",
    "在调用 jit 函数之前", "评分器记录你调用的每个被 jit 函数", "传给你的代码 jit 过的每个函数", "全都在一个 jit 程序里",
    "所有更新都在一个 jit 的 lax.scan 里", "一个操作一个操作即时算出来的", "XLA 估计你编译后的程序每次调用", "调用者仍然持有输入",
    "清单没有另行规定时为 10 秒", "- **在程序里**：结果由编译好的程序计算",
]
# The words to write, and other words that share a character with a variant: none of these may be flagged.
RIGHT_WORDS = ["固化进编译好的程序", "参考答案", "评分进程", "沿网格轴", "被 jit 的函数", "被 jit 的程序", "即时编译",
               "以 eager 模式逐个操作算出来", "调用方", "清单文件", "全零的嵌入", "`jax.jit` 函数", "**在程序内**",
               "把它烤成面包之前"]


def test_every_variant_found_by_the_readers_is_caught():
    variants = forbidden_variants()
    missed = [text for text in FOUND_VARIANTS if not variants_in({"t": text}, variants)]
    assert not missed, missed
    flagged = [text for text in RIGHT_WORDS if variants_in({"t": text}, variants)]
    assert not flagged, flagged


def test_a_forbidden_variant_is_found_across_a_soft_break():
    texts = {"statement.zh.md": "任何在新形状上即时\n执行的 `jnp` 调用", "card": "以 eager\n方式运行"}
    assert len(variants_in(texts, forbidden_variants())) == 2


def test_the_scan_covers_every_kind_of_chinese_text():
    where = " ".join(chinese_texts())
    for kind in ("statement.zh.md", "hints.zh.md", "explanation.zh.md", "help.zh.md", "starter.zh.py",
                 "solution.zh.py", "approaches/", "messages.po", "jittrainer.po", "cards/", "packs/", "manifest.toml",
                 "topics.toml", "scaffold_catalog.py (strings)"):
        assert kind in where, kind


def test_no_chinese_text_uses_a_forbidden_variant():
    found = variants_in(chinese_texts(), forbidden_variants())
    assert not found, f"{len(found)} forbidden variant(s) (docs/glossary.md, Enforced terms):\n" + "\n".join(found)


ROW = re.compile(r"\brows? \{")
LINE = re.compile(r"\b[Ll]ines? \{")
NUMBERED_ROW = re.compile(r"第 ?\{(row|rows)\} ?行(?!数据)")
NUMBERED_LINE = re.compile(r"(?<!代码)第 ?\{line\} ?行")


def row_and_line_problems(po_path: Path) -> list[str]:
    with open(po_path, "rb") as fh:
        catalog = [m for m in read_po(fh) if m.id and isinstance(m.id, str) and m.string]
    speaks_of_rows = any(ROW.search(m.id) for m in catalog)
    problems = []
    for m in catalog:
        if ROW.search(m.id) and NUMBERED_ROW.search(m.string):
            problems.append(f"{po_path.relative_to(REPO)}: a numbered row without 行数据: {m.string[:80]!r}")
        if speaks_of_rows and LINE.search(m.id) and NUMBERED_LINE.search(m.string):
            problems.append(f"{po_path.relative_to(REPO)}: a numbered source line without 代码: {m.string[:80]!r}")
    return problems


def test_rows_and_source_lines_are_told_apart_in_message_templates():
    catalogs = sorted(p for root in (REPO / "exercises", REPO / "packs") for p in root.rglob("zh/LC_MESSAGES/*.po"))
    assert catalogs
    problems = [p for path in catalogs for p in row_and_line_problems(path)]
    assert not problems, "\n".join(problems)


DOUBLED = re.compile(r"被\s*被|的\s*的(?!确)|把\s*把|在\s*在(?!乎)")  # a word typed twice ("被被 jit")


def test_no_chinese_text_has_a_word_typed_twice():
    assert DOUBLED.search("可以像其他值一样，被被 jit 的计算使用") and not DOUBLED.search("的的确确，在乎")
    found = [f"{where}: {text[max(0, m.start() - 12):m.end() + 12]!r}" for where, text in chinese_texts().items()
             for m in DOUBLED.finditer(text)]
    assert not found, "\n".join(found)
