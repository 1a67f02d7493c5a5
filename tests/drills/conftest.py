"""Fixtures for the drill tests: a small synthetic deck, fake clocks, a scheduler on a throwaway store."""

from __future__ import annotations

from pathlib import Path

import pytest
from drillkit import FakeClock, FakeDate, write_deck

from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.schedule import Scheduler
from jittrainer.session.progress import ProgressStore


@pytest.fixture
def deck_dir(tmp_path: Path) -> Path:
    return write_deck(tmp_path / "drills")


@pytest.fixture
def deck(deck_dir: Path):
    return load_drills(deck_dir)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def date() -> FakeDate:
    return FakeDate()


@pytest.fixture
def store(learner_home: Path) -> ProgressStore:
    return ProgressStore(learner_home / "progress.json")


@pytest.fixture
def scheduler(store: ProgressStore, date: FakeDate) -> Scheduler:
    return Scheduler(store, clock=date, fuzz=False)
