"""``jittrainer interview`` through a pipe: the plan announced, every part in turn on one clock, the follow-up and
the debugging task, the explain-why answer, the report and the record; end of input ends the interview and nothing
it did not reach is counted; a statement prints whole sentences in Chinese (issues 36 and 37 items 7, 14)."""

from __future__ import annotations

import io

import pytest
from drillkit import FakeClock
from interviewkit import make_course

from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.present import choice_order
from jittrainer.course.drills.schedule import Scheduler
from jittrainer.course.interview import draft_store, plan_interview
from jittrainer.i18n import set_language
from jittrainer.session import Session
from jittrainer.session.progress import ProgressStore
from jittrainer.units import duration

STEP_S = 30.0  # every line the candidate types takes this long on the fake clock
RIGHT = {"count_two": "2", "tf_false": "f", "text_hi": "hi there", "debug_fix_count": "3"}


class Typist(io.StringIO):
    """The candidate: each line read moves the clock on by STEP_S; the line GRADE first writes a right fix into
    the interview's draft of ``double``, then presses enter."""

    def __init__(self, lines: list[str], clock: FakeClock, session: Session | None = None) -> None:
        super().__init__("".join(line + "\n" for line in lines))
        self.clock, self.session = clock, session

    def readline(self, *args) -> str:
        line = super().readline(*args)
        if line:
            self.clock.advance(STEP_S)
        if line == "GRADE\n":
            draft_store().path(self.session.course.get("double")).write_text("def double(x):\n    return 2 * x\n")
            return "\n"
        return line


class NoWorkers:
    """A worker pool that starts nothing: for interviews whose exercises are never graded."""

    def __init__(self, *args, **kwargs) -> None:
        pass

    def start(self) -> None:
        pass

    def want(self, devices) -> None:
        pass

    def shutdown(self) -> None:
        pass


def _setup(tmp_path, lang="en"):
    session = Session(make_course(tmp_path / "course"), lang=lang)
    deck = load_drills(session.course.root / "drills")
    scheduler = Scheduler(ProgressStore(), fuzz=False)
    return session, deck, scheduler, plan_interview(session.course, deck, scheduler, seed=3)


def _right(card, seed) -> str:
    return RIGHT.get(card.id) or str(choice_order(card, seed).index(card.answer) + 1)


@pytest.mark.worker
def test_a_whole_interview_through_a_pipe(tmp_path, learner_home):
    from jittrainer.cli.interview import run_interview

    session, deck, scheduler, plan = _setup(tmp_path)
    lines: list[str] = []
    for part in plan.parts:
        if part.kind == "coding":
            lines += ["GRADE", "s"]  # the first exercise passes, the follow-up is skipped
        elif part.kind == "explain":
            lines += ["range(3) has three values", "y"]
        else:
            lines += [_right(c, plan.seed) for c in part.cards]
    clock = FakeClock()
    out = io.StringIO()
    report = run_interview(session, deck, scheduler, plan, Typist(lines, clock, session), out, clock)
    text = out.getvalue()
    assert "Mock interview: 29 min in 5 parts (seed 3)." in text and "Planned for a prepared candidate: " in text
    assert "── Part 2 of 5 · Coding exercise · " in text and "PASSED" in text
    assert "── Follow-up: 02 Double it (" in text and "Now the same for twice." in text
    assert "A program from a code review: a loop that prints. Answer 2 questions about it" in text
    assert text.count("    for i in range(3):") == 2 and "(the same program as above)" in text  # explain shows it
    weights = sum(max(1, int(min(c.seconds, p.card_seconds or c.seconds) / 60 + 0.5))
                  for p in plan.parts for c in p.cards)
    right, total = weights + 10, weights + 18  # double passed (size 10); twice shown and skipped (size 8)
    percent = round(100 * right / total)
    assert report[0] == f"Score: {right} of {total} points ({percent}%) on what the interview reached."
    warmup = len(plan.part("warmup").cards)
    assert f"  Warm-up:         {duration(warmup * STEP_S)} of {duration(plan.parts[0].budget_s)}" in report
    assert any(line.startswith("  01 Double it: passed · 1 grade · ") for line in report)
    assert any(line.startswith("  02 Double it (follow-up): not tried · 0 grades · ") for line in report)
    assert "Explain why (self-graded, not in the score): “Why three lines?”: you judged that it named the same " \
           "mechanism." in report
    saved = ProgressStore().load().interviews[-1]
    assert [p["part"] for p in saved["parts"]] == ["warmup", "coding", "debugging", "rapid", "explain"]
    assert saved["parts"][0]["used_s"] == warmup * STEP_S and all(p["reached"] for p in saved["parts"])
    assert saved["explain"]["grade"] == "yes" and saved["task"] == "fixture"
    assert [(a["exercise"], a["status"], a["opened"]) for a in saved["exercises"]] == [
        ("double", "pass", True), ("twice", "skipped", True)]
    assert not session.drafts.path(session.course.get("double")).exists()  # the course draft was never touched


def test_end_of_input_ends_the_interview_and_counts_nothing_it_did_not_reach(tmp_path, learner_home, monkeypatch):
    from jittrainer.cli import interview as cli

    monkeypatch.setattr(cli, "WorkerPool", NoWorkers)
    session, deck, scheduler, plan = _setup(tmp_path)
    first = plan.part("warmup").cards[0]
    clock = FakeClock()
    report = cli.run_interview(session, deck, scheduler, plan, Typist([_right(first, plan.seed)], clock), io.StringIO(),
                               clock)
    text = "\n".join(report)
    assert report[0] == "Score: 1 of 1 point (100%) on what the interview reached."
    assert f"Not reached before the end (not counted): {len(plan.cards) - 1} cards, 2 exercises." in text
    assert "  Coding exercise: not reached" in text and "1 exercises" not in text
    saved = ProgressStore().load().interviews[-1]
    assert [a["opened"] for a in saved["exercises"]] == [False, False]
    assert [p["reached"] for p in saved["parts"]] == [True, False, False, False, False]


def test_q_skips_the_rest_of_a_part_and_statements_print_whole_sentences_in_chinese(tmp_path, learner_home,
                                                                                    monkeypatch):
    from jittrainer.cli import interview as cli

    monkeypatch.setattr(cli, "WorkerPool", NoWorkers)
    session, deck, scheduler, plan = _setup(tmp_path, lang="zh")
    try:
        out = io.StringIO()
        report = cli.run_interview(session, deck, scheduler, plan, Typist(["q", "s", "s", "q"], FakeClock()), out,
                                   FakeClock())
    finally:
        set_language("en")
    text = out.getvalue()
    assert "第一次调用之前会清空 JAX 的缓存" in text  # joined where the source broke the line (issue 37, 14)
    assert "── 追问：02 Double it（" in text and "现在对 twice 做同样的事。" in text
    assert "── 第 3/5 部分 · 调试 · 计划 " in text  # q ended the warm-up, s skipped both exercises, q the debugging task
    assert report[0].startswith("得分：") and "2 道练习通过 0 道" in report[1]
    assert "1 exercises" not in text and "exercise" not in "\n".join(report)
