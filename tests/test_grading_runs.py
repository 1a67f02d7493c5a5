"""A grading with two device counts runs them in two threads: a run that raises is said, never merged away.

It once was: a run's thread died (CPython 3.11's ``ast.parse`` raised SystemError when both runs read the exercise's
checks.py at once), and the verdict was merged from the other run alone, a pass with one device count unchecked.
Had the first run been the one, the grading would have waited for it forever.
"""

from __future__ import annotations

import threading

import pytest

from helpers import exercise
from jittrainer.grading.host.grading import Grading
from jittrainer.grading.host.run import GradingRun, Submission
from jittrainer.grading.verdict import Verdict
from jittrainer.i18n.message import msg


@pytest.mark.parametrize("failing", [0, 1], ids=["first run raises", "second run raises"])
def test_a_run_that_raises_makes_the_grading_raise(monkeypatch, failing):
    ex = exercise("pmap_shards")
    grading = Grading(Submission(ex, b"", ex.starter_path, seed=1, timing=False))
    assert len(grading.runs) == 2
    bad = grading.runs[failing]

    def run(self, on_verdict=None):
        if self is bad:
            raise SystemError("AST constructor recursion depth mismatch")
        return Verdict.failure(ex.id, msg("test", "the other run"))

    monkeypatch.setattr(GradingRun, "run", run)
    outcome: list[object] = []

    def grade():
        try:
            outcome.append(grading.run(on_verdict=lambda v: outcome.append(("early", v))))
        except SystemError as exc:
            outcome.append(exc)

    thread = threading.Thread(target=grade, daemon=True)
    thread.start()
    thread.join(10)
    assert not thread.is_alive(), "the grading waited forever for a run that had raised"
    assert len(outcome) == 1 and isinstance(outcome[0], SystemError), outcome
