"""The desk in a real terminal (tests/e2e/tmux_desk.py): wherever tmux is installed (CI installs it)."""

from __future__ import annotations

import shutil

import pytest
from tmux_desk import hangup_keeps_the_typing, list_over_the_editor_keeps_every_character

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_closing_the_terminal_keeps_the_typing_of_the_last_half_second():
    hangup_keeps_the_typing()


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
def test_the_list_over_the_editor_keeps_every_chinese_character(size):
    list_over_the_editor_keeps_every_character(*size)
