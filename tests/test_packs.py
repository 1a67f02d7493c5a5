"""Packs and `jittrainer new`, without grading: the schema, qualified keys, where packs come from, the CLI's id
syntax, list grouping, and a fresh scaffold that validate calls incomplete."""

from __future__ import annotations

import json
import shutil
from importlib.metadata import version
from pathlib import Path

import pytest

from helpers import REPO
from jittrainer import paths
from jittrainer.cli import main
from jittrainer.course import load_course
from jittrainer.course.exercises import ExerciseNotFound, find_exercise
from jittrainer.course.layout import PARTS, TODO_MARK, find_todos
from jittrainer.course.manifest import KEYS
from jittrainer.course.packs import PACK_KEYS
from jittrainer.i18n.catalogs import catalog_path
from jittrainer.session import Session
from jittrainer.session.drafts import Drafts
from jittrainer.session.progress import ProgressStore

FIXTURE = REPO / "tests" / "fixtures" / "exercises" / "01_double"
EXAMPLE = REPO / "packs" / "vmap_under_jit"


def make_pack(folder: Path, name: str, *exercises: str, extra: str = "", jax: str | None = None) -> Path:
    """A pack of copies of the fixture exercise, renamed to ``exercises`` (ids), numbered in order.

    Validated on the JAX installed here unless ``jax`` says otherwise (the suite runs on the oldest and the newest)."""
    folder.mkdir(parents=True)
    jax = jax or version("jax")
    (folder / "pack.toml").write_text(f'format_version = 1\nname = "{name}"\ntitle = "Pack {name}"\nversion = "1.0"\n'
                                      f'jax_validated = ["{jax}"]\nlanguages = ["en"]\n{extra}')
    for number, exercise_id in enumerate(exercises, 1):
        target = folder / f"{number:02d}_{exercise_id}"
        shutil.copytree(FIXTURE, target)
        manifest = target / "manifest.toml"
        manifest.write_text(manifest.read_text().replace('id = "double"', f'id = "{exercise_id}"')
                            .replace('topic = "Fixture"', 'topic = "trace_time"'))
    return folder


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


# -- the schema -------------------------------------------------------------------------------------------------

def test_every_shipped_manifest_reads_through_the_schema(exercises):
    # Read through the schema: no problems, and on this JAX (an accelerator exercise waits only for its device).
    assert all(not ex.problems and ex.applies for ex in exercises), [ex.problems for ex in exercises if ex.problems]


def test_an_unknown_manifest_key_is_a_problem(tmp_path):
    pack = make_pack(tmp_path / "p", "p", "double")
    manifest = pack / "01_double" / "manifest.toml"
    manifest.write_text(manifest.read_text().replace("[grading]", 'colour = "red"\n[grading]\ntimout_s = 3'))
    ex = load_course(packs=[pack]).packs[0].exercises[0]
    assert any("colour: not a manifest key" in p for p in ex.problems), ex.problems
    assert any("grading.timout_s: not a manifest key" in p for p in ex.problems), ex.problems


def test_the_authoring_guide_lists_every_part_and_key():
    guide = (REPO / "docs" / "authoring.md").read_text(encoding="utf-8")
    for part in PARTS:
        assert f"`{part.path}`" in guide, part.path
    for key in KEYS:
        assert f"`{key.dotted}`" in guide, key.dotted
    for key in PACK_KEYS:
        assert f"`{key.name}`" in guide, key.name


# -- keys, drafts and domains -----------------------------------------------------------------------------------

def test_a_clash_qualifies_the_key_the_draft_and_the_domain(tmp_path):
    a = make_pack(tmp_path / "a", "alpha", "same", "only_a")
    b = make_pack(tmp_path / "b", "beta", "same")
    course = load_course(packs=[a, b])
    keys = [ex.id for ex in course.exercises if ex.pack]
    assert keys == ["alpha:same", "alpha:only_a", "beta:same"]
    first, _, second = (ex for ex in course.exercises if ex.pack)
    assert first.short_id == second.short_id == "same" and first.domain != second.domain
    assert first.domain == "exercise:alpha:same" and catalog_path(first.domain, "zh") == a / "01_same" / "locale" \
        / "zh" / "LC_MESSAGES" / "messages.mo"
    drafts = Drafts()
    assert drafts.path(first) == paths.workspace_dir() / "alpha" / "same.py"
    assert drafts.path(second) == paths.workspace_dir() / "beta" / "same.py"
    drafts.ensure(first)
    drafts.save(first, "x = 1\n")
    drafts.save(first, "x = 2\n")
    assert (paths.backups_dir() / "alpha" / "same.py.bak").read_text() == "x = 1\n"
    kept = drafts.reset(first)
    assert kept is not None and kept.parent == paths.backups_dir() / "alpha" and ":" not in kept.name
    store = ProgressStore()
    store.record_attempt(first.id, "pass")
    assert store.status("alpha:same") == "passed" and store.status("beta:same") == "new"


def test_the_cli_id_syntax(tmp_path):
    a = make_pack(tmp_path / "a", "alpha", "same", "only_a")
    b = make_pack(tmp_path / "b", "beta", "same")
    course = load_course(packs=[a, b])
    exercises = course.exercises
    assert find_exercise(exercises, "only_a").id == "alpha:only_a"  # a pack's own id, when unique
    assert find_exercise(exercises, "beta:same").id == "beta:same"
    assert find_exercise(exercises, "alpha:2").id == "alpha:only_a"
    assert find_exercise(exercises, "alpha:01_same").id == "alpha:same"
    assert find_exercise(exercises, "1").id == "black_box_print"  # a bare number is the course's
    assert find_exercise(exercises, "black_box_print").pack == ""
    with pytest.raises(ExerciseNotFound, match="alpha:same or beta:same"):
        find_exercise(exercises, "same")
    assert course.typed_id(exercises[-1]) == "beta:same" and course.typed_id(exercises[-2]) == "only_a"


def test_a_pack_that_shadows_a_course_id_keeps_both(tmp_path):
    pack = make_pack(tmp_path / "p", "mine", "black_box_print")
    course = load_course(packs=[pack])
    assert find_exercise(course.exercises, "black_box_print").pack == ""
    assert find_exercise(course.exercises, "mine:black_box_print").pack == "mine"


def test_pack_problems_and_notices(tmp_path):
    a = make_pack(tmp_path / "a", "alpha", "one")
    twin = make_pack(tmp_path / "twin", "alpha", "two")
    broken = make_pack(tmp_path / "broken", "Not An Id", "three", extra="colour = 1\n")
    plain = tmp_path / "plain"
    plain.mkdir()
    course = load_course(packs=[a, twin, broken, plain, tmp_path / "missing", a])
    assert [p.dir.name for p in course.packs] == ["a", "broken"]  # a named twice loads once
    assert any("'alpha' is taken" in n for n in course.notices)
    assert sum("not a pack" in n for n in course.notices) == 2
    bad = course.packs[1]
    assert bad.name == "broken" and any("name" in p for p in bad.problems) and any("colour" in p for p in bad.problems)
    assert not bad.exercises[0].available and bad.exercises[0].id == "broken:three"


def test_next_exercise_runs_from_the_course_into_the_packs(tmp_path):
    course = load_course(packs=[make_pack(tmp_path / "a", "alpha", "one", "two")])
    last = [ex for ex in course.exercises if not ex.pack and ex.available][-1]  # the accelerator ones wait
    assert course.next_after(last).id == "alpha:one"
    assert course.next_after(course.get("alpha:one")).id == "alpha:two"
    assert course.next_after(course.get("alpha:one"), -1) is last


# -- where packs come from --------------------------------------------------------------------------------------

def test_packs_come_from_the_home_folder_the_config_and_the_command_line(learner_home, tmp_path):
    make_pack(paths.packs_dir() / "installed", "installed", "one")
    make_pack(learner_home / "configured", "configured", "two")
    given = make_pack(tmp_path / "given", "given", "three")
    paths.config_path().write_text('[course]\npacks = ["configured", "/nowhere/at/all"]\n')
    session = Session(packs=[given])
    assert [p.name for p in session.course.packs] == ["installed", "configured", "given"]
    assert any("/nowhere/at/all" in n for n in session.course.notices)


def test_a_bad_packs_setting_is_a_settings_problem(learner_home):
    learner_home.mkdir(parents=True, exist_ok=True)
    paths.config_path().write_text('[course]\npacks = "one folder"\n')
    session = Session()
    assert any("course.packs" in p for p in session.settings.problems)


def test_pack_option_is_repeatable_before_and_after_the_command(capsys, tmp_path):
    a = make_pack(tmp_path / "a", "alpha", "one")
    b = make_pack(tmp_path / "b", "beta", "two")
    code, out, _ = run_cli(capsys, "--pack", str(a), "list", "--json", "--pack", str(b))
    assert code == 0
    rows = json.loads(out)
    assert [(r["id"], r["pack"]) for r in rows if r["pack"]] == [("alpha:one", "alpha"), ("beta:two", "beta")]
    code, _, err = run_cli(capsys, "list", "--pack", str(tmp_path))
    assert code == 2 and "not a pack" in err


def test_list_groups_by_pack(capsys, tmp_path):
    a = make_pack(tmp_path / "a", "alpha", "one", "same")
    b = make_pack(tmp_path / "b", "beta", "same")
    code, out, _ = run_cli(capsys, "list", "--pack", str(a), "--pack", str(b))
    assert code == 0
    lines = out.splitlines()
    heads = [i for i, line in enumerate(lines) if line.startswith("── ")]
    assert [lines[i] for i in heads] == ["── The course ──", "── Pack alpha · pack alpha 1.0 ──",
                                         "── Pack beta · pack beta 1.0 ──"]
    assert "black_box_print" in "\n".join(lines[heads[0]:heads[1]])
    alpha = "\n".join(lines[heads[1]:heads[2]])
    assert " one " in alpha and "alpha:same" in alpha and "beta:same" in "\n".join(lines[heads[2]:])
    code, out, _ = run_cli(capsys, "list")
    assert "── " not in out  # no packs, no pack headings


def test_list_says_when_a_pack_was_validated_on_another_jax(capsys, tmp_path):
    a = make_pack(tmp_path / "a", "alpha", "one", jax="0.0.1")
    code, out, _ = run_cli(capsys, "list", "--pack", str(a))
    assert code == 0
    assert f"── Pack alpha · pack alpha 1.0 (validated on JAX 0.0.1; this is JAX {version('jax')}) ──" in out


def test_the_example_pack_loads_complete_in_both_languages():
    from jittrainer.course.translations import check_exercise_languages

    course = load_course(packs=[EXAMPLE])
    pack = course.packs[0]
    assert pack.name == "vmap_under_jit" and not pack.problems and pack.editions == ("zh",)
    assert [ex.id for ex in pack.exercises] == ["vmap_under_jit:normalize_rows", "vmap_under_jit:per_example_grads"]
    for ex in pack.exercises:
        assert ex.available and not ex.todos and len(ex.wrong_paths) >= 3, ex.problems
        assert not check_exercise_languages(ex)
    assert course.topic_title("vmap", "zh") == "用 vmap 向量化"


# -- jittrainer new ---------------------------------------------------------------------------------------------

def test_new_scaffolds_into_the_learners_own_pack_and_validate_says_incomplete(capsys):
    code, out, err = run_cli(capsys, "new", "my_ex", "--topic", "static")
    assert code == 0, err
    folder = paths.packs_dir() / "mine" / "01_my_ex"
    todos = find_todos(folder)
    assert f"Created mine:my_ex in {folder}: {len(todos)} TODOs to fill in." in out
    assert "jittrainer validate my_ex" in out and "--pack" not in out  # the learner's own pack loads by itself
    for part in PARTS:
        if part.required:
            assert (folder / part.path).exists(), part.path
    for name in ("statement.zh.md", "hints.zh.md", "explanation.zh.md", "starter.zh.py"):
        assert (folder / name).is_file()
    statement = (folder / "statement.md").read_text()
    assert all(f"\n## {h}\n" in statement for h in ("Your task", "Contract", "How it is graded"))
    assert all(f"\n## {h}\n" in (folder / "statement.zh.md").read_text() for h in ("你的任务", "约定", "评分方式"))
    assert {t.file for t in todos} >= {"statement.md", "checks.py", "starter.py", "solution.py", "hints.md",
                                       "explanation.md", "wrong/plus_one.py", "manifest.toml"}

    code, out, _ = run_cli(capsys, "validate", "my_ex")
    assert code == 1
    assert f"01_my_ex: incomplete: {len(todos)} TODOs (checks.py:" in out
    assert "statement.md:1," in out and "0 grades" in out

    code, out, _ = run_cli(capsys, "list")
    assert "── My exercises · pack mine 0.1.0 ──" in out and "incomplete:" in out
    code, out, _ = run_cli(capsys, "new", "second")
    assert code == 0 and (paths.packs_dir() / "mine" / "02_second").is_dir()
    manifest = (paths.packs_dir() / "mine" / "02_second" / "manifest.toml").read_text()
    assert f"# {TODO_MARK}: the topic, one of: trace_time, " in manifest


def test_new_into_a_pack_folder_and_its_refusals(capsys, tmp_path):
    target = tmp_path / "authoring"
    code, out, _ = run_cli(capsys, "new", "first", "--pack", str(target))
    assert code == 0 and (target / "pack.toml").is_file() and (target / "01_first" / "checks.py").is_file()
    assert f"jittrainer validate first --pack {target}" in out
    pack = load_course(packs=[target]).packs[0]
    assert pack.name == "authoring" and pack.languages == ("en", "zh") and not pack.problems
    for args, words in [
        (("new", "first", "--pack", str(target)), "exists already"),
        (("new", "Bad-Id", "--pack", str(target)), "is not an id"),
        (("new", "other", "--topic", "nope"), "is not a topic"),
        (("new", "other", "--pack", str(target), "--pack", str(tmp_path / "x")), "one pack"),
        (("new", "other", "--pack", str(REPO / "exercises")), "is the course itself"),
    ]:
        code, _, err = run_cli(capsys, *args)
        assert code == 2 and words in err, (args, err)


def test_validate_refuses_a_pack_that_did_not_load(capsys, tmp_path):
    a = make_pack(tmp_path / "a", "alpha", "one")
    twin = make_pack(tmp_path / "twin", "alpha", "two")
    code, _, err = run_cli(capsys, "validate", "--pack", str(a), "--pack", str(twin))
    assert code == 2 and "'alpha' is taken" in err and "the pack was not loaded" in err
