"""Fixtures for every test: a throwaway learner home, and the bundled exercises."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import EXERCISES

from jittrainer.course.exercises import Exercise, load_exercises
from jittrainer.i18n import set_language


@pytest.fixture(autouse=True)
def learner_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("JITTRAINER_HOME", str(home))
    monkeypatch.delenv("JITTRAINER_EXERCISES", raising=False)
    # The language is pinned, so the suite passes whatever the machine's locale; tests of Chinese ask for it.
    monkeypatch.setenv("JITTRAINER_LANG", "en")
    set_language("en")
    # Process-wide queues a test may leave filled (a corrupt progress file's notice): the next test starts empty.
    from jittrainer.session.progress import drain_notices

    drain_notices()
    return home


@pytest.fixture(scope="session")
def exercises() -> list[Exercise]:
    return load_exercises(EXERCISES)
