"""The real app in a real terminal: part of ``make test`` wherever tmux is installed (CI installs it)."""

from __future__ import annotations

import shutil

import pytest
from tmux_drive import (Terminal, drive, external_editor_round_trip, keyboard_only_desk, kill_while_typing,
                        live_grading_keeps_the_cursor, watch_grades_each_save)

pytestmark = [pytest.mark.worker, pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")]


def test_the_terminal_relaunches_right_after_its_session_is_killed(tmp_path):
    # Each relaunch used to race the server's exit after the last session died (1 in ~40 here; CI, stop 39).
    term = Terminal(tmp_path)
    try:
        for _ in range(200):
            term.launch("--version")
            term.tmux("kill-session", "-t", term.session)
    finally:
        term.close()


def test_learner_fails_the_starter_then_passes_with_the_solution():
    drive()


def test_sigkill_loses_at_most_the_last_second_of_typing():
    kill_while_typing()


def test_watch_grades_a_save_made_by_another_editor():
    watch_grades_each_save()


def test_ctrl_o_opens_the_draft_in_the_external_editor_and_reloads_it():
    external_editor_round_trip()


def test_live_grading_never_moves_the_cursor_while_typing():
    live_grading_keeps_the_cursor()


def test_keyboard_only_read_the_task_dedent_a_block_grade_and_pass():
    keyboard_only_desk()
