"""The real app in a real terminal: part of ``make test`` wherever tmux is installed (CI installs it)."""

from __future__ import annotations

import shutil

import pytest
from tmux_drive import drive, kill_while_typing

pytestmark = [pytest.mark.worker, pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")]


def test_learner_fails_the_starter_then_passes_with_the_solution():
    drive()


def test_sigkill_loses_at_most_the_last_second_of_typing():
    kill_while_typing()
