"""While a grade runs, the panel shows its time against the limit that applies, and says what the clock counts
(issue 22, item 5, the app's side; the grader's timeout headline is not here)."""

from __future__ import annotations

from apphelpers import make_app, plain, screen, wait_until
from textual.widgets import Static

from jittrainer.app.grading import GradeClock
from jittrainer.app.screens.main import GradeState


async def test_a_running_grade_shows_its_time_against_the_exercises_limit(monkeypatch):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        s.open_exercise("unrolled_loop")  # its manifest sets 40 s
        await pilot.pause()
        clocks = {"now": None}
        monkeypatch.setattr(app.dispatcher, "clock",
                            lambda run_id: None if clocks["now"] is None else GradeClock(40.0, clocks["now"]))
        s.grade_state = GradeState(77, "unrolled_loop", "grading")
        s.panel.switch("checks")
        await pilot.pause()
        checks = plain(s.panel.query_one("#checks-body", Static))
        assert "The time limit is 40 s, set by this exercise" in checks
        assert "counts from when a worker process takes the job" in checks
        clock = s.panel.query_one("#grade-clock", Static)
        await wait_until(pilot, lambda: clock.display and "waiting for a worker" in plain(clock), 3, "the wait")
        clocks["now"] = 3.24
        await wait_until(pilot, lambda: "3.2 s of 40 s" in plain(clock), 3, "the clock")
        assert "3.2 s of 40 s" in str(s.panel.border_subtitle)
        s.grade_state = None
        await pilot.pause()
        assert not clock.display


async def test_an_exercise_without_a_limit_of_its_own_says_the_default():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        assert not s.current.timeout_s
        s.grade_state = GradeState(78, s.current.id, "grading")
        s.panel.switch("checks")
        await pilot.pause()
        checks = plain(s.panel.query_one("#checks-body", Static))
        assert "The time limit is 10 s (the default; this exercise sets none)" in checks


def test_check_help_says_where_the_limit_comes_from(capsys):
    import pytest

    from jittrainer.cli import main

    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "the exercise's own limit, grading.timeout_s in its manifest.toml, else 10" in out
    assert "from when a worker process takes the job" in out


def test_the_dispatchers_clock_starts_when_a_worker_takes_the_job():
    import time
    from types import SimpleNamespace

    from jittrainer.app.grading import GradeDispatcher
    from jittrainer.grading.limits import Limits

    dispatcher = GradeDispatcher(spares=0)
    run_id = dispatcher.begin()
    assert dispatcher.clock(run_id) is None  # no grading yet
    grading = SimpleNamespace(handed_over_at=None, limits=Limits(timeout_s=40.0))
    dispatcher._current = grading
    assert dispatcher.clock(run_id) == GradeClock(40.0, None)  # waiting for a worker
    grading.handed_over_at = time.monotonic() - 2.0
    clock = dispatcher.clock(run_id)
    assert clock.limit_s == 40.0 and 2.0 <= clock.elapsed_s < 5.0
    assert dispatcher.clock(run_id + 1) is None and dispatcher.clock(run_id - 1) is None
