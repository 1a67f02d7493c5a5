"""Progress is the session's (issue 37, item 15): recording it, with a full or read-only disk turned into a warning
instead of a lost verdict, lives in session/progress.py, not in the command line's styling."""

from __future__ import annotations

import ast
import errno

from helpers import REPO

from jittrainer.session.progress import save_progress


def test_save_progress_lives_with_progress_and_warns_on_a_refused_disk(capsys):
    said = []

    def refused(*args):
        raise OSError(errno.ENOSPC, "No space left on device", "/home/progress.json")

    assert save_progress(refused, 1, warn=said.append) is None
    assert said and "progress not saved" in said[0] and "No space left on device" in said[0]
    assert save_progress(lambda a, b: a + b, 2, 3) == 5
    save_progress(refused)
    assert "jittrainer: warning: progress not saved" in capsys.readouterr().err


def test_the_command_line_defines_no_progress_saving_of_its_own():
    for path in sorted((REPO / "src" / "jittrainer" / "cli").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert "save_progress" not in defined, path.name
