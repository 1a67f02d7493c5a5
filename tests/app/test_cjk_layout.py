"""What a Chinese learner sees in the panel: prose that fills its lines, and no 。 or ： starting one.

The app is rendered at the two sizes the course supports and the screen is read back cell by cell, pane by pane,
so this fails whatever stops Chinese from wrapping right: the wrapper's pattern, a Markdown block that wraps some
other way, a pane given a different renderer.
"""

from __future__ import annotations

import json
import re

import pytest
from apphelpers import REPO, VERDICT_WORDS, list_wrapped, make_app, markdown_drawn, show_verdict, text, wait_until
from textual.widgets import Markdown

from jittrainer.grading.verdict import CheckResult, Verdict
from jittrainer.i18n import cells

EXERCISES = ("black_box_print", "static_shapes", "recompile_storm", "where_nan_gradient")
SIZES = ((120, 40), (80, 24))
HAN = re.compile(r"[\u3400-\u9fff]")
CLOSING = "，。；：！？、）」』》"


UNIT = re.compile(r"[（「『《“]*(?:[\u2e80-\u9fff\uff00-\uffef\u3000-\u303f]|[^\s\u2e80-\u9fff\uff00-\uffef]+)"
                  f"[{CLOSING}]*")


def screen_lines(app, region) -> list[str]:
    strips = app.screen._compositor.render_strips()  # private, as Textual's own snapshot plugin reads the screen
    return [strips[y].crop(region.x, region.right).text for y in range(region.y, region.bottom)]


def blocks(app, pane) -> list[tuple[str, int, list[str], list[str]]]:
    """Each text block on show in ``pane`` (a paragraph, a list item, a check's line): its kind, its width and its
    visible screen lines. Code blocks and tables are left out: they are not wrapped."""
    visible = pane.scrollable_content_region.intersection(app.screen.region)
    found = []
    for widget in pane.query("*"):
        if widget.children or not widget.display or type(widget).__name__.startswith(("MarkdownFence", "MarkdownTable")):
            continue
        if any(type(a).__name__.startswith(("MarkdownFence", "MarkdownTable")) for a in widget.ancestors):
            continue
        region = widget.content_region.intersection(visible)
        if region.height and region.width:
            found.append((type(widget).__name__, region.width, screen_lines(app, region), hard_lines(widget)))
    return found


def hard_lines(widget) -> list[str]:
    """The lines ``widget``'s text was written in: a line that ends one of them ends where its author ended it."""
    visual = widget.render()
    return [line.strip() for line in getattr(visual, "plain", str(visual)).split("\n") if line.strip()]


def on_screen(app, pane) -> bool:
    return sum(bool(HAN.search(line)) for _, _, lines, _ in blocks(app, pane) for line in lines) >= 2


async def settled(pilot, app, pane, what: str, *, from_top: bool = True) -> None:
    """Wait until ``pane`` draws what it was last given, with Chinese in view, and has stopped changing.

    A Markdown pane takes its new source at once, then parses it in a thread and mounts new blocks in place of the
    old ones: until that is done its previous text (Chinese too) is on screen, or blocks not laid out yet. On a
    loaded machine that took over 0.3 s (CI), so no fixed pause is long enough; this waits for the new text itself.
    ``from_top=False``: the pane is scrolled elsewhere, and only its stillness is waited for.
    """
    seen = []

    def ready() -> bool:
        shown = blocks(app, pane)
        seen.append(shown)
        still = len(seen) >= 3 and seen[-1] == seen[-2] == seen[-3]
        if not from_top:
            return still and not pane.lock.is_locked
        return still and (not isinstance(pane, Markdown) or markdown_drawn(pane)) and on_screen(app, pane)

    await wait_until(pilot, ready, timeout=30, what=f"{what}, drawn and still")


def wrap_problems(lines: list[str], width: int, hard: list[str] = ()) -> list[str]:
    problems = []
    for line, after in zip(lines, lines[1:]):
        body, nxt = line.rstrip(), after.strip()
        if nxt and nxt[0] in CLOSING:
            problems.append(f"closing punctuation starts a line: {line.strip()!r} / {nxt!r}")
        if re.search(r"[\u3400-\u9fff，。：；]\s{2,}\S", body):
            problems.append(f"a run of spaces inside Chinese text: {body.strip()!r}")
        unit = UNIT.match(nxt) if body.strip() and nxt else None
        if unit and (HAN.search(body) or HAN.search(nxt)) and not any(h.endswith(body.strip()) for h in hard):
            # The next line's first word (a Chinese character with its punctuation, or a run of other text) would
            # have fitted: the line was broken early, the gap a learner sees when Chinese wraps only at spaces.
            # a space sits between Chinese and other text, and it takes a cell too
            need = cells(unit.group(0)) + (1 if body[-1].isascii() or nxt[0].isascii() else 0)
            if width - cells(body) >= need:
                problems.append(f"a gap of {width - cells(body)} cells before {nxt[:8]!r}: {body.strip()[-24:]!r}")
    return problems


def chinese_verdict(exercise_id: str) -> Verdict:
    """A failed starter's verdict in the words the grader writes: its recorded Chinese headline."""
    golden = json.loads((REPO / "tests" / "goldens" / f"{exercise_id}.json").read_text(encoding="utf-8"))
    headline = next(entry["zh"] for name, entry in golden["files"].items()
                    if name.startswith("starter") and entry.get("zh"))
    words = VERDICT_WORDS["zh"]
    return Verdict(
        exercise=exercise_id, status="fail", headline=text(headline),
        checks=[CheckResult("runs", text(words["runs"][0]), "pass", text(words["runs"][1])),
                CheckResult("values", text(words["values"][0]), "fail", text(headline),
                            advice=text(words["advice"]), advice_tier=2),
                CheckResult("extra", text(words["extra"][0]), "skip", text(words["extra"][1]))],
        seed=7, duration_s=1.0,
    )


async def screens_of(pilot, app, exercise_id: str):
    s = app.main_screen
    s.open_exercise(exercise_id)
    await wait_until(pilot, lambda: s.current.id == exercise_id, what="the exercise")
    task = s.panel.query_one("#task-body", Markdown)
    await wait_until(pilot, lambda: s.panel.active == "task" and HAN.search(task.source or ""), what="the task")
    await settled(pilot, app, task, f"{exercise_id}'s task")
    yield "task", task
    hints = s.panel.query_one("#hints-body", Markdown)
    before = hints.source
    for _ in range(3):
        s.action_hint()
    await wait_until(pilot, lambda: hints.source != before, what="the hints")
    # Each hint request re-renders the pane and then scrolls its newest tier to the top: the last of the three must
    # be done (its scroll too) before the pane is scrolled home, or a late scroll moves the prose out of view.
    await wait_until(pilot, lambda: all(w.is_finished for w in app.workers if w.group == "hints"),
                     what="the hint updates")
    await settled(pilot, app, hints, f"{exercise_id}'s newest hint", from_top=False)
    hints.scroll_home(animate=False)  # the newest tier is scrolled to; the first two are the prose
    await settled(pilot, app, hints, f"{exercise_id}'s hints from the top")
    yield "hints", hints
    await show_verdict(pilot, app, chinese_verdict(exercise_id))
    checks = s.panel.scroller("checks")
    await settled(pilot, app, checks, f"{exercise_id}'s checks")
    yield "checks", checks
    s._reveal(s.current)
    why = s.panel.query_one("#why-body", Markdown)
    # before the reveal the pane held the locked note, in Chinese too: wait for the explanation that replaced it
    await wait_until(pilot, lambda: s.panel.active == "why" and "原理" in why.source, what="the explanation")
    await settled(pilot, app, why, f"{exercise_id}'s explanation")
    yield "why", why


@pytest.mark.parametrize("size", SIZES, ids=lambda size: "x".join(map(str, size)))
async def test_chinese_panes_wrap_without_gaps_or_punctuation_at_line_starts(size):
    app = make_app(lang="zh")
    found, seen = [], 0
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for exercise_id in EXERCISES:
            async for tab, widget in screens_of(pilot, app, exercise_id):
                assert app.main_screen.panel.active == tab
                shown = blocks(app, widget)
                prose = [line for _, _, lines, _ in shown for line in lines if HAN.search(line)]
                assert len(prose) >= 2, f"{exercise_id} {tab}: no Chinese on screen"
                seen += len(prose)
                found += [f"{exercise_id} {tab} {kind}: {p}" for kind, width, lines, hard in shown
                          for p in wrap_problems(lines, width, hard)]
    assert seen > 40
    assert not found, "\n".join(found)


def test_the_layout_check_sees_a_gap_and_a_line_starting_with_punctuation():
    # The lines as a wrapper that breaks only at spaces left them (captured from the app before the fix).
    lines = ["jax.jit 也是这样。每遇到新的输入形状、dtype、静态值或新的函数，jit",
             "就编译一次，之后就一直重放这个编译好的程序，直到又遇到新的输入形状或 dtype 为止。",
             "可菜谱一旦交给压力锅，锅就不再需要他",
             "：没有盖子可掀。"]
    problems = wrap_problems(lines, 84)
    assert any("gap" in p for p in problems) and any("closing punctuation" in p for p in problems)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: "x".join(map(str, size)))
async def test_the_exercise_list_breaks_chinese_titles_between_phrases(size):
    app = make_app(lang="zh")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        s = app.main_screen
        s.action_toggle_sidebar()
        await wait_until(pilot, lambda: list_wrapped(s), what="the list wrapped for its width")
        option_list = s.sidebar.query_one("#exercise-list")
        titles = {ex.id: s.session.title(ex) for ex in s.session.course.exercises}
        split = []
        for exercise_id, title in titles.items():
            prompt = option_list.get_option(exercise_id).prompt
            lines = [line.strip() for line in prompt.plain.split("\n")][: len(title)]
            # An unavailable exercise's reason follows on lines of its own (wrapped the same way, checked apart).
            reason = next((i for i, line in enumerate(lines) if line.startswith("不可用：")), len(lines))
            lines, reason_lines = lines[:reason], lines[reason:]
            split += [f"{a}⏎{b}" for a, b in zip(reason_lines, reason_lines[1:]) if HAN.match(a[-1]) and HAN.match(b[0])]
            shown = [lines[0].split(" ", 2)[2], *lines[1:]]  # past the mark and the number
            for line, after in zip(shown, shown[1:]):
                # a line may end at a phrase's punctuation or at a space, never between two Chinese characters
                if HAN.match(line[-1]) and HAN.match(after[0]):
                    split.append(f"{line}⏎{after}")
        assert len(titles) >= 30
        assert not split, split
        # what the list draws is what the prompts say: no line of it is folded again by the option list
        region = option_list.scrollable_content_region
        drawn = screen_lines(app, region)
        assert any("黑箱：jit 里的 print" in line for line in drawn), "\n".join(drawn)
        assert not any(HAN.match(line.strip()[:1] or " ") and line.strip()[0] in CLOSING for line in drawn)
