"""Loading exercise folders: course order, only <nn>_<id>/ folders, malformed ones named by file and field."""

from __future__ import annotations

from helpers import EXERCISES, copy_exercise, exercise
from jittrainer.course.exercises import load_exercises, parse_hints


def test_bundled_exercises_are_complete_and_in_order(exercises):
    assert exercises, "no exercises found"
    assert [e.number for e in exercises] == sorted(e.number for e in exercises)
    for ex in exercises:
        assert not ex.problems and ex.applies, ex.problems  # an accelerator exercise may wait for its device
        assert len(ex.hints()) >= 3 and len(ex.wrong_paths) >= 3 and ex.targets
        statement = ex.statement()
        assert "## Contract" in statement and "How it is graded" in statement


def test_other_folders_are_ignored(tmp_path):
    copy_exercise(exercise("black_box_print"), tmp_path)
    (tmp_path / "drills").mkdir()
    (tmp_path / "notes").mkdir()
    assert [e.id for e in load_exercises(tmp_path)] == ["black_box_print"]


def test_malformed_exercises_load_as_unavailable_naming_file_and_field(tmp_path):
    ex = exercise("black_box_print")
    good = copy_exercise(ex, tmp_path)
    bad = tmp_path / "02_broken"
    bad.mkdir()
    (bad / "manifest.toml").write_text('format_version = 1\nid = "other"\ntitle = 3\n[grading]\nfunction = "f g"\n')
    worse = tmp_path / "03_worse"
    worse.mkdir()
    (worse / "manifest.toml").write_text("this is = = not toml")
    loaded = {e.id: e for e in load_exercises(tmp_path)}
    assert loaded["black_box_print"].available
    broken = " | ".join(loaded["broken"].problems)
    for words in (
        "02_broken/manifest.toml: id: 'other' does not match",
        "title: expected a non-empty str",
        "topic: missing",
        "grading.function: 'f g' is not a Python name",
        "grading.targets: missing",
        "02_broken/starter.py: file is missing",
        "02_broken/hints.md: file is missing",
        "02_broken/wrong/: 0 wrong fix(es)",
    ):
        assert words in broken
    assert "03_worse/manifest.toml: not valid TOML" in loaded["worse"].problems[0]
    assert good.exists()


def test_translations_fall_back_to_english(tmp_path):
    folder = copy_exercise(exercise("black_box_print"), tmp_path)
    (folder / "hints.zh.md").unlink()  # a half-translated exercise: its statement only
    (folder / "statement.zh.md").write_text("# 黑箱\n")
    ex = load_exercises(tmp_path)[0]
    assert ex.statement("zh") == "# 黑箱\n"
    assert ex.statement("fr") == ex.statement()
    assert ex.hints("zh") == ex.hints()


def test_parse_hints():
    hints = parse_hints("intro\n## One\na\n\n## Two\nb\n```\n## not a heading in code? still split\n```\n")
    assert [h.title for h in hints][:2] == ["One", "Two"] and hints[0].body == "a"


def test_checkout_fallback_finds_the_exercises(monkeypatch):
    from jittrainer.course import exercises as module

    monkeypatch.delenv("JITTRAINER_EXERCISES", raising=False)
    assert module.default_root() == EXERCISES
