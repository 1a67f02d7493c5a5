"""jittrainer new and validate for an outside author (issue 37, item 9), and the Chinese edition of the code a
learner reads (item 12): every reference solution ships as solution.zh.py (same code, Chinese comments and
docstrings), the zh starters' docstrings are Chinese, and validate speaks the learner's language."""

from __future__ import annotations

import ast
import io
import re
import shutil
import sys
import tokenize

import pytest
from helpers import EXERCISES, REPO

from jittrainer.cli import main
from jittrainer.course import load_course
from jittrainer.course.example_block import example_block_lines
from jittrainer.course.exercises import load_exercises
from jittrainer.course.layout import Todo, todo_summary
from jittrainer.course.translations import check_exercise_languages, same_code
from jittrainer.course.validate import _result_words, static_problems
from jittrainer.grading.verdict import ErrorInfo
from jittrainer.i18n import set_language
from jittrainer.i18n.catalogs import register_exercise, translations

HAN = re.compile(r"[\u4e00-\u9fff]")
PACK = REPO / "packs" / "vmap_under_jit"


def run(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


# -- jittrainer new ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_new_help_says_pack_is_where_the_exercise_goes(capsys, lang):
    with pytest.raises(SystemExit):
        main(["--lang", lang, "new", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "also load the pack" not in out and "同时加载" not in out
    assert {"en": "the pack to write it into", "zh": "写入哪个练习包"}[lang] in out


def test_the_scaffold_runs_as_a_program_and_speaks_chinese_without_babel(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "babel", None)  # as after `make run`: no dev extra
    code, out = run(capsys, "new", "my_ex", "--pack", str(tmp_path / "pack"))
    assert code == 0, out
    folder = tmp_path / "pack" / "01_my_ex"
    for name in ("starter.py", "starter.zh.py"):
        assert example_block_lines((folder / name).read_text(encoding="utf-8")) is not None, name
    assert same_code((folder / "solution.py").read_text(), (folder / "solution.zh.py").read_text())
    assert (folder / "locale" / "zh" / "LC_MESSAGES" / "messages.mo").is_file()
    ex = load_course(packs=[tmp_path / "pack"]).packs[0].exercises[0]
    catalog = translations(register_exercise(ex.id, ex.dir), "zh")
    assert catalog.pgettext("check:runs", "my_ex runs under jax.jit") == "my_ex 在 jax.jit 下运行"
    assert catalog.pgettext("values.ok", "{calls} returned 2 * x") == "{calls}都返回了 2 * x"


def test_validate_says_incomplete_once(capsys, tmp_path):
    run(capsys, "new", "my_ex", "--pack", str(tmp_path / "pack"))
    code, out = run(capsys, "validate", "my_ex", "--pack", str(tmp_path / "pack"))
    assert code == 1 and out.count("incomplete:") == 1, out


def test_validate_asks_for_the_starters_example_block(tmp_path):
    copy = tmp_path / "vmap_under_jit"
    shutil.copytree(PACK, copy, ignore=shutil.ignore_patterns("__pycache__"))
    starter = copy / "01_normalize_rows" / "starter.py"
    text = starter.read_text(encoding="utf-8")
    starter.write_text(text[: text.index("\n\n\n# Not graded")] + "\n", encoding="utf-8")
    first, second = load_course(packs=[copy]).packs[0].exercises
    assert any("no `if __name__" in p for p in static_problems(first, languages=False)), static_problems(first, languages=False)
    assert not static_problems(second, languages=True)


# -- the Chinese edition of the code --------------------------------------------------------------------------------

def course_and_pack() -> list:
    return [*load_exercises(EXERCISES), *load_course(packs=[PACK]).packs[0].exercises]


def english_in_code_text(source: str) -> list[str]:
    """Comments and docstrings of a Chinese edition that hold no Chinese (an English sentence left behind)."""
    found = [tok.string for tok in tokenize.generate_tokens(io.StringIO(source).readline)
             if tok.type == tokenize.COMMENT and not HAN.search(tok.string) and re.search(r"[A-Za-z]{3,}", tok.string)]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)):
            doc = ast.get_docstring(node)
            if doc and not HAN.search(doc):
                found.append(doc)
    return found


def test_every_reference_solution_and_starter_ships_in_chinese_with_the_same_code():
    exercises = course_and_pack()
    assert len(exercises) >= 34
    problems = []
    for ex in exercises:
        problems += [p for p in check_exercise_languages(ex) if "starter" in p or "solution" in p]
        for name in ("starter.zh.py", "solution.zh.py"):
            path = ex.dir / name
            if path.is_file():
                problems += [f"{ex.dir.name}/{name}: {text[:70]!r}" for text in english_in_code_text(path.read_text())]
    assert not problems, "\n".join(problems)


def test_a_chinese_edition_with_other_code_is_refused(tmp_path):
    folder = tmp_path / "01_x"
    shutil.copytree(PACK / "01_normalize_rows", folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "solution.zh.py").write_text((folder / "solution.py").read_text() + "\nEXTRA = 1\n")
    ex = load_exercises(tmp_path, pack="p", editions=("zh",))[0]
    assert any("solution.zh.py" in p for p in check_exercise_languages(ex))
    (folder / "solution.zh.py").unlink()
    assert any("solution.zh.py: missing" in p for p in check_exercise_languages(ex))


# -- validate, a syntax error and a crash, in Chinese -------------------------------------------------------------

def test_validate_speaks_chinese():
    set_language("zh")
    assert _result_words("01_x/solution.py", "solution") == "01_x/solution.py：参考答案通过"
    assert HAN.search(_result_words("01_x/starter.py", "starter")) and HAN.search(_result_words("w.py", "wrong"))
    assert todo_summary([Todo("checks.py", 3, "x"), Todo("checks.py", 11, "y")]).startswith("未完成：还有 2 处 TODO")


def test_a_syntax_error_and_a_crash_read_in_chinese():
    set_language("zh")
    info = ErrorInfo("SyntaxError", "expected ':'", line=5, traceback="SyntaxError on line 5: expected ':'\n    if x\n"
                     "        ^")
    assert info.shown_traceback().splitlines()[0] == "第 5 行：SyntaxError：expected ':'"
    from jittrainer.grading.host.mishaps import SIGNAL_WORDS
    from jittrainer.i18n.message import msg

    crash = msg("run.crashed", "the grading process crashed with signal {signal}{what} {where}", signal="SIGABRT",
                what=SIGNAL_WORDS["SIGABRT"], where=msg("phase.run", "while your program ran")).render()
    assert "aborted" not in crash and "（中止）" in crash, crash
