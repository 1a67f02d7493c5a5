"""What ``jittrainer watch`` prints (issue 37, item 6): the keys the learner has there (a, h), not other commands;
hints as text, not Markdown source; no JAX note about its removed frames under the learner's traceback. In both
languages."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest

from jittrainer.cli.watch import WatchLoop
from jittrainer.grading.verdict import CheckResult, ErrorInfo, Verdict
from jittrainer.i18n.message import Msg
from jittrainer.session import Session

JAX_NOTE = ("--------------------\nFor simplicity, JAX has removed its internal frames from the traceback of the "
            "following exception. Set JAX_TRACEBACK_FILTERING=off to include these.")


def text(words: str) -> Msg:
    return Msg("test", words)


def loop(lang: str, exercise_id: str) -> tuple[WatchLoop, io.StringIO]:
    session = Session(lang=lang)
    out = io.StringIO()
    return WatchLoop(session, session.find(exercise_id), out, io.StringIO(), pool=object()), out


def failing(exercise_id: str) -> Verdict:
    return Verdict(
        exercise=exercise_id, status="fail", headline=text("update_stock raised TypeError"),
        checks=[CheckResult("runs", text("update_stock runs under jax.jit"), "fail", text("it raised"),
                            advice=text("use x.at[i].add(v)"), advice_tier=2)],
        error=ErrorInfo("TypeError", "JAX arrays are immutable", line=9, phase="call 1",
                        traceback='Traceback (your code only):\n  File "inplace_update.py", line 9, in post_one\n'
                                  "    s[items[j]] += deltas[j]\nTypeError: JAX arrays are immutable\n" + JAX_NOTE),
        seed=3, duration_s=0.2)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_failing_verdict_names_the_keys_of_watch(lang, capsys):
    watch, out = loop(lang, "inplace_update")
    watch.show(failing("inplace_update"))
    printed = out.getvalue() + capsys.readouterr().out
    assert "--advice" not in printed and "jittrainer hint" not in printed
    key_words = {"en": ("with the a key", "h shows a hint"), "zh": ("按 a 键", "按 h 看提示")}[lang]
    assert all(words in printed for words in key_words), printed
    assert "JAX_TRACEBACK_FILTERING" not in printed and "-----" not in printed and "s[items[j]]" in printed


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hints_in_watch_read_as_text_not_markdown(lang, capsys):
    watch, out = loop(lang, "inplace_update")
    bodies = [h.body for h in watch.session.hints(watch.exercise)]
    assert any("```" in body for body in bodies) and any("`" in body.replace("```", "") for body in bodies)
    for _ in bodies:
        watch.key("h")
    printed = out.getvalue() + capsys.readouterr().out
    assert "`" not in printed and "**" not in printed, printed
    assert ".at[" in printed  # the code is there, without its fences and backticks


@pytest.mark.parametrize("mode, platform", [("tpu", "tpu"), ("cpu", "")])
def test_watch_grades_in_the_device_mode_it_was_given(mode, platform, monkeypatch, learner_home):
    """`watch --device`: every grade it starts carries the mode, and a mode other than cpu asks for the timing that
    the device takes over (nothing runs here: the grading is captured)."""
    from jittrainer import cli
    from jittrainer.cli import watch as watch_cli

    submissions = []

    class Captured:
        def __init__(self, submission, limits, take_worker=None):
            submissions.append(submission)

        def run(self):
            return failing("black_box_print")

        def cancel(self):
            pass

    monkeypatch.setattr(watch_cli, "Grading", Captured)
    monkeypatch.setattr(watch_cli, "WorkerPool", lambda *args, **kwargs: SimpleNamespace(take=None))

    def one_grade(self):
        self.grade(source=b"x = 1\n")
        assert self.events.get(timeout=60).kind == "verdict"  # its thread has run the (captured) grading
        return 0

    monkeypatch.setattr(watch_cli.WatchLoop, "loop", one_grade)
    assert cli.main(["watch", "black_box_print", "--device", mode]) == 0
    (submission,) = submissions
    assert (submission.device_mode, submission.device, submission.timing) == (mode, platform, mode != "cpu")
