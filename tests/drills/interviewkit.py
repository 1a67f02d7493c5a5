"""A small course for the mock interview's tests: three copies of the fixture exercise (two marked for interviews,
a pair of them in the plan file), the drill test deck with a two-card debugging task, and the plan file."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

from drillkit import CARDS, write_deck

from helpers import REPO

FIXTURE = REPO / "tests" / "fixtures" / "exercises" / "01_double"

DEBUG_CARDS = {
    "debug_fix_count": """
        format_version = 1
        id = "debug_fix_count"
        topic = "beta"
        kind = "count"
        seconds = 120
        question = "How many lines does it print?"
        code = '''
        for i in range(3):
            print(i)
        '''
        answer = 3
        explanation = "Three."

        [proof]
        observe = "lines"
        """,
    "debug_fix_why": """
        format_version = 1
        id = "debug_fix_why"
        topic = "beta"
        kind = "choice"
        seconds = 150
        question = "Why three lines?"
        code = '''
        for i in range(3):
            print(i)
        '''
        choices = ["range(3) runs three times", "print adds lines", "i is printed twice"]
        answer = 1
        explanation = "range(3) has three values."

        [proof]
        observe = "answer"
        expect = "three times"
        code = "answer = 'three times' if len(range(3)) == 3 else '?'"
        """,
}

PLAN = """
format_version = 1
minutes = 29

[[part]]
id = "warmup"
minutes = 2
levels = { medium = 1 }

[[part]]
id = "coding"
minutes = 20

[[part]]
id = "debugging"
minutes = 4

[[part]]
id = "rapid"
minutes = 1
levels = { medium = 1 }
card_seconds = 30

[[part]]
id = "explain"
minutes = 2

[coding]
minutes = 10

[coding.sizes]
twice = 8

[[follow_up]]
first = "double"
then = "twice"
note = "Now the same for twice."
zh.note = "现在对 twice 做同样的事。"

[[follow_up]]
first = "double"
then = "not_in_this_course"
note = "Ignored: the follow-up is not in the course."

[[debugging]]
id = "fixture"
title = "a loop that prints"
zh.title = "会打印的循环"
cards = ["debug_fix_count", "debug_fix_why"]
core = "debug_fix_why"
"""


def make_course(root: Path, *, plan: str | None = PLAN, marked: tuple[str, ...] = ("double", "twice")) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for number, ex_id in enumerate(("double", "twice", "quad"), 1):
        folder = root / f"{number:02d}_{ex_id}"
        shutil.copytree(FIXTURE, folder)
        manifest = folder / "manifest.toml"
        text = manifest.read_text().replace('topic = "Fixture"', 'topic = "alpha"').replace(
            'id = "double"', f'id = "{ex_id}"')
        if ex_id not in marked:
            text = text.replace("interview = true", "interview = false")
        manifest.write_text(text)
        (folder / "statement.zh.md").write_text(
            "# 翻倍\n\n`double(x)` 返回 `2 * x`：第一次调用之前会清空 JAX\n的缓存，两次调用只能编译一次。\n", encoding="utf-8")
    write_deck(root / "drills", {**CARDS, **DEBUG_CARDS})
    if plan is not None:
        (root / "interview.toml").write_text(textwrap.dedent(plan).lstrip(), encoding="utf-8")
    return root
