"""Packs, graded: the example pack validates and grades through the CLI, and a scaffold with its marks filled in
validates clean (so `jittrainer new` stays in step with the authoring API)."""

from __future__ import annotations

import json
import subprocess

import pytest

from helpers import REPO, clean_env, jittrainer_cmd
from jittrainer import paths
from jittrainer.cli import main
from jittrainer.course.layout import TODO_MARK, find_todos
from jittrainer.session.progress import ProgressStore

pytestmark = pytest.mark.worker

EXAMPLE = REPO / "packs" / "vmap_under_jit"


def test_the_example_pack_validates(capsys):
    code = main(["validate", "--pack", str(EXAMPLE), "--jobs", "2"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "All good: 2 exercises, 15 grades" in out


def test_the_example_pack_grades_through_the_cli(learner_home):
    def check(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*jittrainer_cmd(), "--pack", str(EXAMPLE), "check", *args], capture_output=True,
                              text=True, timeout=180, env=clean_env(JITTRAINER_HOME=str(learner_home)),
                              stdin=subprocess.DEVNULL)

    r = check("normalize_rows", "--json")
    assert r.returncode == 1, r.stderr
    verdict = json.loads(r.stdout)
    assert verdict["exercise"] == "vmap_under_jit:normalize_rows"
    assert [c["id"] for c in verdict["checks"] if c["status"] == "fail"] == ["batched"]
    draft = paths.workspace_dir() / "vmap_under_jit" / "normalize_rows.py"
    assert draft.read_text() == (EXAMPLE / "01_normalize_rows" / "starter.py").read_text()
    draft.write_text((EXAMPLE / "01_normalize_rows" / "solution.py").read_text())
    r = check("vmap_under_jit:normalize_rows", "--lang", "zh")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "通过" in r.stdout
    assert ProgressStore().status("vmap_under_jit:normalize_rows") == "passed"


def test_a_scaffold_with_its_marks_filled_in_validates(capsys, tmp_path):
    pack = tmp_path / "drafting"
    assert main(["new", "doubled", "--pack", str(pack), "--topic", "trace_time"]) == 0
    folder = pack / "01_doubled"
    for todo in find_todos(folder):
        path = folder / todo.file
        path.write_text(path.read_text(encoding="utf-8").replace(TODO_MARK, "done"), encoding="utf-8")
    capsys.readouterr()
    code = main(["validate", "--pack", str(pack), "--no-languages", "--jobs", "2"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "All good: 1 exercise, 5 grades" in out
