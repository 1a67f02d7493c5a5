"""What survives the end of a session at the desk (issue 37, item 4): the last second of typing when the terminal
closes (SIGHUP / SIGTERM; tests/e2e/test_tmux_desk.py closes a real one), the last verdict when the app opens again,
and a title that says a grade is running instead of showing the previous verdict's word."""

from __future__ import annotations

import dataclasses
import signal

import pytest
from apphelpers import failing_verdict, make_app, plain, post_keys, screen, wait_until
from textual.widgets import Static

from jittrainer.app.messages import VerdictReady
from jittrainer.session.drafts import Drafts

SIZES = ((80, 24), (120, 40), (200, 50))
size_ids = lambda size: "x".join(map(str, size))  # noqa: E731
WORDS = {"en": {"grading": "GRADING", "restored": "Your last verdict, given at", "changed": "Your draft has changed",
                "failed": "FAILED"},
         "zh": {"grading": "正在评分", "restored": "这是你上一次的判定", "changed": "此后你的草稿改过了",
                "failed": "未通过"}}


async def grade_with(pilot, s, verdict) -> None:
    """ctrl+r, with the verdict the test hands in place of a worker's."""
    await pilot.press("ctrl+r")
    s.post_message(VerdictReady(s.grade_state.run_id, s.current.id, verdict, timing_pending=False))
    await wait_until(pilot, lambda: s.grade_state is None, what="the verdict")
    await pilot.pause()


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
async def test_a_hangup_writes_the_typing_of_the_last_half_second(signum):
    app = make_app(autosave_delay=30.0)  # no autosave would come in time: only the hang-up writes it
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        ex = s.current
        post_keys(app, *"# typed as the terminal closed")
        await wait_until(pilot, lambda: s.editor.text.startswith("# typed as the terminal closed"), what="typing")
        draft = Drafts().path(ex)
        assert not draft.read_text(encoding="utf-8").startswith("# typed")
        app.hang_up(signum)
        assert draft.read_text(encoding="utf-8").startswith("# typed as the terminal closed")
    assert app.return_code == 128 + signum


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES, ids=size_ids)
async def test_the_last_verdict_is_back_when_the_app_opens_again(size, lang):
    words = WORDS[lang]
    app = make_app(lang=lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        s = screen(app)
        s._grade = lambda *args: None
        ex = s.current
        await pilot.press("ctrl+r")
        # while it runs, the title says so, not the previous verdict's word
        assert words["grading"] in s.panel.border_title
        s.post_message(VerdictReady(s.grade_state.run_id, ex.id, dataclasses.replace(failing_verdict(lang),
                                                                                      exercise=ex.id),
                                    timing_pending=False))
        await wait_until(pilot, lambda: s.grade_state is None, what="the verdict")
        assert words["failed"] in s.panel.border_title
        await pilot.press("ctrl+r")
        assert words["grading"] in s.panel.border_title and words["failed"] not in s.panel.border_title

    again = make_app(lang=lang)
    async with again.run_test(size=size) as pilot:
        await pilot.pause()
        s = screen(again)
        s._grade = lambda *args: None  # the verdicts come from the test
        assert s.current.id == ex.id
        await wait_until(pilot, lambda: ex.id in s.verdicts, what="the restored verdict")
        assert words["failed"] in s.panel.border_title
        s.panel.switch("checks")
        await pilot.pause()
        checks = plain(s.panel.query_one("#checks-body", Static))
        assert words["restored"] in checks and words["changed"] not in checks
        assert failing_verdict(lang).headline.text in checks
        # a change to the draft: the note says the verdict is of other code now
        post_keys(again, *"# edited")
        await wait_until(pilot, lambda: s.editor.text.startswith("# edited"), what="the edit")
        s.show_verdict(s.current)
        await pilot.pause()
        assert words["changed"] in plain(s.panel.query_one("#checks-body", Static))
        # and the next verdict of this session replaces it, without the note
        await grade_with(pilot, s, dataclasses.replace(failing_verdict(lang), exercise=ex.id))
        assert words["restored"] not in plain(s.panel.query_one("#checks-body", Static))


def passing(exercise_id: str):
    from apphelpers import text

    from jittrainer.grading.verdict import CheckResult, Verdict

    return Verdict(exercise=exercise_id, status="pass", headline=text("all checks pass"),
                   checks=[CheckResult("runs", text("runs"), "pass", text("ran"))], seed=1, duration_s=0.1)


def learners_fix(ex, lang: str, changed: str = "") -> str:
    """The reference solution as a learner ends up with it: the starter's TODO comments kept, its example block
    kept below, and (``changed``) one line of their own."""
    starter = ex.starter_file(lang).read_text(encoding="utf-8")
    solution = ex.solution_file(lang).read_text(encoding="utf-8")
    todos = [line for line in starter.splitlines() if "TODO" in line]
    lines = solution.splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith("def ")) + 1
    lines[at:at] = todos
    if changed:
        lines.insert(at + len(todos), changed)
    return "\n".join(lines) + "\n\n\n" + starter[starter.index("# ", starter.index("return")):]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES, ids=size_ids)
async def test_the_why_diff_compares_what_is_graded(size, lang):
    app = make_app(lang=lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        s = screen(app)
        s._grade = lambda *args: None
        s.open_exercise("boolean_mask")
        await wait_until(pilot, lambda: s.current.id == "boolean_mask", what="exercise 09")
        ex = s.current
        for changed in ("", "    unused = 0  # mine"):
            draft = learners_fix(ex, lang, changed)
            assert "__main__" in draft and "TODO" in draft
            s.editor.load_text(draft)
            s.keeper.edited(draft)
            await grade_with(pilot, s, passing(ex.id))
            why = s.panel.markdown_source("why")
            diff = why[why.index("```diff"):] if "```diff" in why else ""
            if not changed:
                assert not diff, diff  # the same code: no line of the example block or the TODOs shows as a change
            else:
                body = [line for line in diff.splitlines()[3:] if line[:1] in "+-" and not line.startswith("```")]
                assert body == ["-    unused = 0  # mine"], diff


@pytest.mark.parametrize("size", SIZES, ids=size_ids)
async def test_the_revealed_solution_is_in_the_learners_language(size):
    app = make_app(lang="zh")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        s = screen(app)
        ex = s.current
        s._reveal(ex)
        await wait_until(pilot, lambda: "```python" in s.panel.markdown_source("why"), what="the solution")
        why = s.panel.markdown_source("why")
        english = [line.strip() for line in ex.solution_path.read_text().splitlines() if line.strip().startswith("#")]
        chinese = [line.strip() for line in ex.solution_file("zh").read_text().splitlines()
                   if line.strip().startswith("#")]
        assert english and chinese and english != chinese
        assert all(line in why for line in chinese) and not any(line in why for line in english), why
