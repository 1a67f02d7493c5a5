"""The CLI through the installed entry point, as a learner or a CI script runs it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from helpers import REPO, copy_exercise, exercise, jittrainer_cmd

pytestmark = pytest.mark.worker

FIXTURES = REPO / "tests" / "fixtures" / "exercises"


def run(*args: str, home: Path, timeout: float = 120, exercises: Path | None = None) -> subprocess.CompletedProcess:
    cmd = jittrainer_cmd()
    if exercises is not None:
        cmd += ["--exercises", str(exercises)]
    env_home = {"JITTRAINER_HOME": str(home)}
    import os

    env = {**os.environ, **env_home}
    env.pop("JITTRAINER_EXERCISES", None)
    return subprocess.run(cmd + list(args), capture_output=True, text=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL)


def test_version(learner_home):
    r = run("--version", home=learner_home)
    assert r.returncode == 0 and r.stdout.startswith("jittrainer ")


def test_list_json_in_course_order(learner_home):
    r = run("list", "--json", home=learner_home)
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert [row["number"] for row in rows] == sorted(row["number"] for row in rows)
    assert rows[0]["id"] == "black_box_print"
    assert {"id", "title", "topic", "status"} <= set(rows[0])
    assert all(row["status"] == "new" for row in rows if row["available"])


def test_show_prints_statement_and_creates_the_draft(learner_home):
    r = run("show", "black_box_print", home=learner_home)
    assert r.returncode == 0
    assert "## Contract" in r.stdout
    draft = learner_home / "workspace" / "black_box_print.py"
    assert str(draft) in r.stdout
    assert draft.read_text() == exercise("black_box_print").starter_path.read_text()


def test_check_draft_records_progress_and_other_paths_do_not(learner_home):
    ex = exercise("black_box_print")
    r = run("check", "black_box_print", "--json", "--seed", "7", home=learner_home)
    assert r.returncode == 1, r.stderr
    verdict = json.loads(r.stdout)
    assert verdict["status"] == "fail" and verdict["seed"] == 7
    progress = json.loads((learner_home / "progress.json").read_text())
    entry = progress["exercises"]["black_box_print"]
    assert entry["attempts"] == 1 and entry["status"] == "attempted"

    r = run("check", "black_box_print", str(ex.solution_path), "--json", home=learner_home)
    assert r.returncode == 0, r.stdout
    progress = json.loads((learner_home / "progress.json").read_text())
    assert progress["exercises"]["black_box_print"]["attempts"] == 1  # another PATH is not the draft

    (learner_home / "workspace" / "black_box_print.py").write_bytes(ex.solution_path.read_bytes())
    r = run("check", "black_box_print", home=learner_home)
    assert r.returncode == 0 and "PASSED" in r.stdout
    entry = json.loads((learner_home / "progress.json").read_text())["exercises"]["black_box_print"]
    assert entry["status"] == "passed" and entry["first_pass_at"]
    r = run("list", "--json", home=learner_home)
    assert json.loads(r.stdout)[0]["status"] == "passed"


def test_json_stdout_is_one_object_whatever_the_code_prints(learner_home, tmp_path):
    noisy = tmp_path / "noisy.py"
    noisy.write_text(
        "import sys, os\nprint('{\"status\": \"pass\"}')\nos.write(1, b'}{ raw\\n')\nsys.stdout.close()\n"
        + exercise("black_box_print").solution_path.read_text()
    )
    r = run("check", "black_box_print", str(noisy), "--json", home=learner_home)
    verdict = json.loads(r.stdout)  # raises if anything else is on stdout
    assert verdict["status"] == "pass" and r.returncode == 0
    assert '{"status": "pass"}' in verdict["output"]


def test_seed_reproducibility(learner_home):
    ex = exercise("black_box_print")
    outs = [
        json.loads(run("check", ex.id, str(ex.solution_path), "--json", "--seed", s, "--no-timing", home=learner_home).stdout)
        for s in ("11", "11", "12")
    ]
    assert outs[0]["output"] == outs[1]["output"] != outs[2]["output"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("check", "no_such_exercise"), "no exercise called 'no_such_exercise'"),
        (("check", "black_box_print", "/nonexistent/file.py"), "/nonexistent/file.py: no such file"),
        (("check", "black_box_print", "--timeout", "-1"), "must be more than 0"),
        (("hint", "black_box_print", "--level", "9"), "--level must be between 1 and"),
        (("show", "nope"), "no exercise called 'nope'"),
    ],
)
def test_usage_errors_exit_2_with_one_line(learner_home, args, words):
    r = run(*args, home=learner_home)
    assert r.returncode == 2
    assert words in r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith(("jittrainer:", "usage"))


def test_timeout_flag_is_a_timeout(learner_home, tmp_path):
    loop = tmp_path / "loop.py"
    loop.write_text("while True:\n    pass\n")
    r = run("check", "black_box_print", str(loop), "--timeout", "1.5", "--json", home=learner_home)
    assert r.returncode == 1
    verdict = json.loads(r.stdout)
    assert verdict["status"] == "error"
    assert verdict["message"].startswith("timed out after 1.5 s while importing your file")


def test_broken_exercise_exits_2_naming_the_file(learner_home, tmp_path):
    root = tmp_path / "exercises"
    folder = copy_exercise(exercise("black_box_print"), root)
    (folder / "checks.py").write_text("CHECKS = {'a': 'A'}\ndef grade(g):\n    1 / 0\n")
    r = run("check", "black_box_print", str(folder / "solution.py"), home=learner_home, exercises=root)
    assert r.returncode == 2
    assert "checks.py" in r.stderr and "ZeroDivisionError" in r.stderr


def test_hint_tiers_are_recorded_in_order(learner_home):
    first = run("hint", "black_box_print", home=learner_home)
    second = run("hint", "black_box_print", home=learner_home)
    assert first.stdout.startswith("Hint 1 of ") and second.stdout.startswith("Hint 2 of ")
    progress = json.loads((learner_home / "progress.json").read_text())
    assert progress["exercises"]["black_box_print"]["hints_used"] == [1, 2]


def test_reset_keeps_the_old_draft(learner_home):
    run("show", "black_box_print", home=learner_home)
    draft = learner_home / "workspace" / "black_box_print.py"
    draft.write_text("# my attempt\n")
    r = run("reset", "black_box_print", home=learner_home)
    assert r.returncode == 0
    assert draft.read_text() == exercise("black_box_print").starter_path.read_text()
    kept = list((learner_home / "backups").glob("black_box_print-*.py"))
    assert len(kept) == 1 and kept[0].read_text() == "# my attempt\n"
    assert str(kept[0]) in r.stdout


def test_validate_on_fixture_and_on_a_broken_pack(learner_home, tmp_path):
    r = run("validate", "--jobs", "2", home=learner_home, exercises=FIXTURES)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "All good" in r.stdout

    root = tmp_path / "exercises"
    folder = copy_exercise(exercise("black_box_print"), root)
    (folder / "wrong" / "actually_right.py").write_bytes((folder / "solution.py").read_bytes())
    (folder / "manifest.toml").write_text((folder / "manifest.toml").read_text().replace('call = "jit"', 'call = "maybe"'))
    r = run("validate", "--json", home=learner_home, exercises=root)
    assert r.returncode == 1
    report = json.loads(r.stdout)
    assert any("grading.call" in p and "manifest.toml" in p for p in report["problems"])

    # CHECKS that the host cannot read without running the file: reassigned after the literal.
    (folder / "manifest.toml").write_text((folder / "manifest.toml").read_text().replace('call = "maybe"', 'call = "jit"'))
    with (folder / "checks.py").open("a") as fh:
        fh.write("\nCHECKS = dict(CHECKS)\n")
    r = run("validate", "--json", home=learner_home, exercises=root)
    assert r.returncode == 1
    assert any("checks.py: CHECKS must be assigned once" in p for p in json.loads(r.stdout)["problems"])


def test_doctor(learner_home):
    r = run("doctor", home=learner_home)
    assert r.returncode == 0, r.stdout
    assert "devices" in r.stdout and "4 × cpu" in r.stdout
    assert str(learner_home) in r.stdout


def test_read_only_progress_is_a_warning_not_a_lost_verdict(learner_home, monkeypatch, capsys):
    import errno

    from jittrainer import cli
    from jittrainer.session.progress import ProgressStore

    def refuse(self, *args):
        raise OSError(errno.EROFS, "Read-only file system", str(learner_home / "progress.json"))

    monkeypatch.setattr(ProgressStore, "record_attempt", refuse)
    code = cli.main(["check", "black_box_print", "--json", "--no-timing", "--seed", "1"])
    out, err = capsys.readouterr()
    assert code == 1 and json.loads(out)["status"] == "fail"
    assert "warning: progress not saved (Read-only file system" in err


def test_advice_is_null_until_asked_for_or_earned(learner_home):
    first = json.loads(run("check", "black_box_print", "--json", home=learner_home).stdout)
    failing = next(c for c in first["checks"] if c["status"] in ("fail", "error"))
    assert first["advice"] is None and failing["advice"] is None and failing["advice_tier"] >= 1
    assert "jax.debug.print(" not in first["message"]  # the observation hands over no code
    asked = json.loads(run("check", "black_box_print", "--json", "--advice", home=learner_home).stdout)
    assert asked["advice"] and "jax.debug.print" in asked["advice"]


def test_repeated_explicit_failures_unlock_the_advice(learner_home):
    runs = [json.loads(run("check", "black_box_print", "--json", home=learner_home).stdout) for _ in range(3)]
    assert [r["advice"] is not None for r in runs] == [False, False, True]  # advice_after = 3 by default
    progress = json.loads((learner_home / "progress.json").read_text())
    assert progress["exercises"]["black_box_print"]["check_failures"] == {"prints_each_call": 3}


def test_exercism_results_json_v3(learner_home):
    r = run("check", "black_box_print", "--json", "--format", "exercism", home=learner_home)
    data = json.loads(r.stdout)
    assert data["version"] == 3 and data["status"] == "fail" and data["message"]
    assert {t["status"] for t in data["tests"]} <= {"pass", "fail", "error"}
    assert all(set(t) == {"name", "status", "message", "output", "test_code"} for t in data["tests"])
    assert all(t["output"] is None or len(t["output"]) <= 500 for t in data["tests"])
    skipped = [t for t in data["tests"] if t["status"] == "error"]
    assert all("failed first" in t["message"] for t in skipped)


def test_check_all_grades_every_draft_and_tabulates(learner_home):
    ex = exercise("black_box_print")
    run("show", ex.id, home=learner_home)
    (learner_home / "workspace" / f"{ex.id}.py").write_bytes(ex.solution_path.read_bytes())
    r = run("check", "--all", "--json", home=learner_home)
    rows = {row["id"]: row for row in json.loads(r.stdout)}
    assert rows[ex.id]["status"] == "pass" and rows["frozen_globals"]["status"] == "no draft"
    assert r.returncode == 0
    assert json.loads((learner_home / "progress.json").read_text())["exercises"][ex.id]["status"] == "passed"


def test_check_in_chinese_keeps_json_keys_and_ids(learner_home):
    r = run("--lang", "zh", "check", "black_box_print", "--json", home=learner_home)
    data = json.loads(r.stdout)
    assert set(data) >= {"status", "message", "checks", "advice", "compiles"} and data["lang"] == "zh"
    assert [c["id"] for c in data["checks"]] == ["runs", "values", "one_compile", "prints_each_call"]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in data["message"])  # the words are Chinese
    r = run("--lang", "zh", "check", "black_box_print", home=learner_home)
    assert "未通过" in r.stdout


def test_format_exercism_implies_json_and_every_test_code_names_its_rule(learner_home):
    r = run("check", "black_box_print", "--format", "exercism", home=learner_home)
    assert r.returncode == 1 and not r.stderr.strip()
    data = json.loads(r.stdout)
    assert data["version"] == 3 and data["status"] == "fail"
    assert all(t["test_code"].startswith("Check ") and "Rule it enforces" in t["test_code"] for t in data["tests"])
    r = run("check", "--all", "--format", "exercism", home=learner_home)
    assert r.returncode == 2 and "--format exercism" in r.stderr


@pytest.mark.parametrize("command", ["check", "run"])
def test_a_command_runs_on_a_worker_started_before_the_course_is_read(command, learner_home, monkeypatch, capsys):
    """`check` and `run` start their worker first, so its import of jax overlaps the course and draft loading; the
    job runs on that worker, no second one starts beside it, and none is left running."""
    from jittrainer import cli
    from jittrainer.cli import check as check_cli
    from jittrainer.cli import scratch as scratch_cli
    from jittrainer.grading.host import pool as pool_module

    events: list[tuple] = []
    pools: list[pool_module.WorkerPool] = []

    class Recording(pool_module.WorkerPool):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            pools.append(self)

        def start(self):
            super().start()
            events.append(("spare", *[w.supervisor_pid for w in self.idle()]))

        def take(self, devices=4):
            worker = super().take(devices)
            events.append(("took", worker.supervisor_pid))
            return worker

    module = check_cli if command == "check" else scratch_cli
    reading = module.session_for
    monkeypatch.setattr(pool_module, "WorkerPool", Recording)
    monkeypatch.setattr(module, "session_for", lambda args: events.append(("course",)) or reading(args))
    options = ["--no-timing", "--no-review", "--seed", "1"] if command == "check" else []
    code = cli.main([command, "black_box_print", "--json", *options])
    out = json.loads(capsys.readouterr().out)
    if command == "check":
        assert (code, out["status"]) == (1, "fail")  # the starter's verdict
    else:
        assert code == 0 and "calls" in out  # the scratch run's report
    (pool,) = pools
    spare = events[0][1]
    assert events == [("spare", spare), ("course",), ("spare", spare), ("took", spare)]
    assert pool.started_workers == 1 and pool.idle() == []
