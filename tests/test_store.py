"""Drafts and progress: atomic writes with a backup, schema versions and migration, corrupt files moved aside."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from helpers import exercise
from jittrainer.files import atomic_write_text
from jittrainer.session.drafts import Drafts
from jittrainer.session.progress import SCHEMA_VERSION, ProgressStore


def test_atomic_write_keeps_a_backup(tmp_path):
    path, backup = tmp_path / "f.txt", tmp_path / "b" / "f.txt.bak"
    atomic_write_text(path, "one", backup=backup)
    assert not backup.exists()
    atomic_write_text(path, "two", backup=backup)
    assert path.read_text() == "two" and backup.read_text() == "one"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_progress_records_attempts_passes_hints_and_reveals(tmp_path):
    store = ProgressStore(tmp_path / "progress.json")
    assert store.status("a") == "new"
    store.record_attempt("a", "fail")
    assert store.status("a") == "attempted"
    store.record_hint("a", 2)
    store.record_hint("a", 1)
    store.record_hint("a", 2)
    store.record_reveal("a")
    store.record_attempt("a", "pass")
    store.record_attempt("a", "fail")  # a later failure does not un-pass
    entry = store.entry("a")
    assert entry.status == "passed" and entry.attempts == 3 and entry.passes == 1
    assert entry.hints_used == [1, 2]
    assert entry.revealed_before_pass is True and entry.first_pass_at
    data = json.loads((tmp_path / "progress.json").read_text())
    assert data["schema_version"] == SCHEMA_VERSION


def test_old_schema_is_migrated_not_discarded(tmp_path):
    path = tmp_path / "progress.json"
    path.write_text(json.dumps({"passed": ["black_box_print"], "attempted": ["frozen_globals"], "current": "frozen_globals"}))
    store = ProgressStore(path)
    assert store.status("black_box_print") == "passed"
    assert store.status("frozen_globals") == "attempted"
    assert store.load().last_open == "frozen_globals"
    store.record_hint("frozen_globals", 1)
    data = json.loads(path.read_text())
    assert data["schema_version"] == SCHEMA_VERSION and data["exercises"]["black_box_print"]["status"] == "passed"


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"schema_version": 1, "exercises": []}', "\x00\xff"])
def test_corrupt_progress_is_moved_aside_and_rebuilt_from_backup(tmp_path, content):
    path = tmp_path / "progress.json"
    store = ProgressStore(path)
    store.record_attempt("a", "pass")
    store.record_attempt("b", "fail")  # the backup now holds a's pass
    path.write_text(content)
    fresh = ProgressStore(path)
    assert fresh.status("a") == "passed"
    assert fresh.notices and "it was moved to progress.json.corrupt-" in str(fresh.notices[0])
    assert "restored from progress.json.bak" in str(fresh.notices[0])
    assert list(tmp_path.glob("progress.json.corrupt-*"))


def test_newer_schema_is_not_overwritten_silently(tmp_path):
    path = tmp_path / "progress.json"
    path.write_text(json.dumps({"schema_version": SCHEMA_VERSION + 1, "exercises": {}}))
    store = ProgressStore(path)
    store.load()
    assert "written by a newer jittrainer" in str(store.notices[0])
    assert list(tmp_path.glob("progress.json.corrupt-*"))  # kept, not lost


def test_drafts_created_from_starter_saved_and_reset(tmp_path):
    ex = exercise("black_box_print")
    drafts = Drafts(tmp_path / "ws", tmp_path / "bk")
    path = drafts.ensure(ex)
    assert path.read_bytes() == ex.starter_path.read_bytes()
    drafts.save(ex, "v1")
    drafts.save(ex, "v2")
    assert path.read_text() == "v2" and drafts.backup_path(ex).read_text() == "v1"
    kept = drafts.reset(ex)
    assert kept.read_text() == "v2" and path.read_bytes() == ex.starter_path.read_bytes()


def test_concurrent_writers_lose_nothing(tmp_path):
    path = tmp_path / "progress.json"
    code = (
        "import sys; from jittrainer.session.progress import ProgressStore\n"
        "s = ProgressStore(sys.argv[1])\n"
        "for i in range(25): s.record_attempt(sys.argv[2], 'fail')\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code, str(path), name]) for name in ("a", "b", "c")]
    assert all(p.wait(60) == 0 for p in procs)
    store = ProgressStore(path)
    assert [store.entry(n).attempts for n in "abc"] == [25, 25, 25]


def test_kill_9_during_writes_leaves_a_whole_file(tmp_path):
    path = tmp_path / "draft.py"
    code = (
        "import sys, itertools; from jittrainer.files import atomic_write_text\n"
        "for i in itertools.count():\n"
        "    atomic_write_text(sys.argv[1], f'# version {i}\\n' + 'x = 1\\n' * 2000, backup=sys.argv[1] + '.bak')\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(path)])
    deadline = time.monotonic() + 30
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.3)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    text = path.read_text()
    assert text.startswith("# version ") and text.count("x = 1\n") == 2000


def test_schema_1_is_migrated_to_2_with_advice_counters(tmp_path):
    path = tmp_path / "progress.json"
    v1 = {"schema_version": 1, "last_open": "a", "exercises": {"a": {"status": "attempted", "attempts": 2,
          "passes": 0, "hints_used": [1]}}, "drills": {"version": 1, "cards": {}}, "mine": {"kept": True}}
    path.write_text(json.dumps(v1))
    store = ProgressStore(path)
    entry = store.entry("a")
    assert (entry.status, entry.attempts, entry.hints_used, entry.check_failures) == ("attempted", 2, [1], {})
    store.record_attempt("a", "fail", first_failure="values")
    store.record_attempt("a", "fail", first_failure="values", explicit=False)  # live grading does not count
    data = json.loads(path.read_text())
    assert data["schema_version"] == SCHEMA_VERSION == 2
    assert data["exercises"]["a"]["check_failures"] == {"values": 1}
    assert data["mine"] == {"kept": True}  # a key this version does not know is kept, not dropped


def test_older_generations_survive_a_program_that_garbles_the_file_and_its_backup(tmp_path):
    from jittrainer.session.progress import drain_notices

    path = tmp_path / "progress.json"
    store = ProgressStore(path)
    store.record_attempt("a", "pass")
    store.record_attempt("b", "fail")
    store.record_attempt("c", "fail")  # .bak.2 holds a's pass alone, .bak a and b
    assert [p.name for p in store.backups if p.exists()] == ["progress.json.bak", "progress.json.bak.2"]
    drain_notices()
    for target in (path, store.backup):
        target.write_text("garbage")
    fresh = ProgressStore(path)
    assert fresh.status("a") == "passed"
    assert "restored from progress.json.bak.2" in str(fresh.notices[0])
    assert [str(n) for n in drain_notices()] == [str(fresh.notices[0])]  # every command prints the queue
    assert drain_notices() == []


def test_only_three_generations_are_kept(tmp_path):
    store = ProgressStore(tmp_path / "progress.json")
    for i in range(6):
        store.record_attempt(f"e{i}", "fail")
    kept = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("progress.json"))
    assert kept == ["progress.json", "progress.json.bak", "progress.json.bak.2", "progress.json.bak.3"]
    assert set(json.loads(store.backups[-1].read_text())["exercises"]) == {"e0", "e1", "e2"}
