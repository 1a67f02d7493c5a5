"""Fixtures for every test: a throwaway learner home, and the bundled exercises."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import EXERCISES

from jittrainer.course.exercises import Exercise, load_exercises


@pytest.fixture(autouse=True)
def learner_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("JITTRAINER_HOME", str(home))
    monkeypatch.delenv("JITTRAINER_EXERCISES", raising=False)
    return home


@pytest.fixture(scope="session")
def exercises() -> list[Exercise]:
    return load_exercises(EXERCISES)
