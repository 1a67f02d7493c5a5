"""``check --format exercism``: results.json v3 whose every test_code says what the check is and which rule of the
statement it enforces (issue 22, item 7)."""

from __future__ import annotations

import ast
import dataclasses

import pytest

from helpers import REPO
from jittrainer.cli.exercism import exercism_json, rule_text
from jittrainer.course.exercises import load_exercises
from jittrainer.course.rules import grading_rules, rule_index, rule_problems
from jittrainer.grading.verdict import CheckResult, Verdict
from jittrainer.i18n import set_language
from jittrainer.i18n.message import Msg

EXERCISES = load_exercises(REPO / "exercises") + load_exercises(REPO / "packs" / "vmap_under_jit")


def declared_checks(ex) -> dict[str, str]:
    tree = ast.parse(ex.checks_path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "CHECKS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"{ex.id}: no CHECKS")


@pytest.mark.parametrize("ex", EXERCISES, ids=[ex.id for ex in EXERCISES])
def test_every_check_names_exactly_one_rule_in_both_editions(ex):
    checks = tuple(declared_checks(ex))
    statements = {"en": ex.statement("en"), "zh": ex.statement("zh")}
    assert rule_problems(checks, statements, ex.dir.name) == []
    rules = grading_rules(ex.statement())
    for check_id in checks:
        rule = rules[rule_index(check_id, rules)]
        assert "(check" not in rule.text  # the marker is not part of the rule's text
        if check_id in ("one_compile", "compiles"):
            assert rule.label and rule.label.startswith("Compiles"), (check_id, rule)


def test_the_rules_of_exercise_1_are_the_ones_a_reader_would_pick():
    ex = next(ex for ex in EXERCISES if ex.id == "black_box_print")
    picked = {cid: rule_text(ex, cid, "en") for cid in declared_checks(ex)}
    assert picked["prints_each_call"].startswith("Output: what is printed during call i")
    assert picked["values"].startswith("Results must match")
    assert picked["one_compile"].startswith("Compiles: every backend compile")
    assert picked["runs"].startswith("The grader calls `normalize` under `jax.jit`")


def test_a_chinese_learner_reads_the_rule_in_chinese():
    ex = next(ex for ex in EXERCISES if ex.id == "black_box_print")
    rule = rule_text(ex, "prints_each_call", "zh")
    assert rule and any("\u4e00" <= ch <= "\u9fff" for ch in rule) and "检查项" not in rule


# -- the pairing is written down: validate says what is wrong with it --------------------------------------------

STATEMENT = """# T

## How it is graded

- The grader calls `f` under `jax.jit`. (check `runs`)
- It calls `f` three times.
- **Runs** smoothly: the gradient runs too.
- **Results** must match `2 * x`. (check `values`)
"""


def test_an_author_check_named_runs_gets_the_bullet_that_names_it_not_the_one_that_says_runs():
    rules = grading_rules(STATEMENT)
    assert rules[rule_index("runs", rules)].text == "The grader calls `f` under `jax.jit`."
    assert rule_index("values", rules) == 3 and rule_index("gradient", rules) is None
    assert rule_problems(("runs", "values"), {"en": STATEMENT}, "01_t") == []


def test_a_check_without_its_rule_is_a_problem():
    problems = rule_problems(("runs", "values", "gradient"), {"en": STATEMENT}, "01_t")
    assert problems == ["01_t/statement.md: check 'gradient' has no rule: end the bullet that states it with "
                        "(check `gradient`)"]


def test_two_checks_on_one_rule_are_a_problem():
    two = STATEMENT.replace("`2 * x`. (check `values`)", "`2 * x`. (check `values`) (check `runs`)")
    problems = rule_problems(("runs", "values"), {"en": two}, "01_t")
    assert any("names 2 checks (values, runs): one rule per check" in p for p in problems)
    assert any("(check `runs`) marks two rules (1 and 4)" in p for p in problems)


def test_a_marker_for_no_check_and_a_translation_that_names_other_checks_are_problems():
    assert "names (check `values`), not a check of checks.py" in rule_problems(
        ("runs", "value"), {"en": STATEMENT}, "01_t")[0]
    chinese = STATEMENT.replace("How it is graded", "评分方式").replace("(check `runs`)", "（检查项 `runs`）")
    assert rule_problems(("runs", "values"), {"en": STATEMENT, "zh": chinese.replace("(check `values`)", "")},
                         "01_t") == ["01_t/statement.zh.md: its rules name other checks than statement.md's (by "
                                     "bullet: runs | - | - | -; English: runs | - | - | values)"]
    assert rule_problems(("runs", "values"), {"en": STATEMENT, "zh": chinese}, "01_t") == []


def test_test_code_carries_the_description_and_the_rule():
    ex = next(ex for ex in EXERCISES if ex.id == "black_box_print")
    checks = [CheckResult(cid, Msg(f"check.{cid}", desc, domain=ex.domain), "pass" if cid != "prints_each_call"
                          else "fail", Msg("t", "printed once"))
              for cid, desc in declared_checks(ex).items()]
    verdict = Verdict(exercise=ex.id, status="fail", headline=Msg("t", "printed once"), checks=checks)
    set_language("en")
    data = exercism_json(verdict, ex)
    assert data["version"] == 3 and data["status"] == "fail"
    by_name = {t["name"]: t for t in data["tests"]}
    prints = by_name["every call prints its own mean, at run time"]
    assert prints["status"] == "fail" and prints["message"] == "printed once"
    assert prints["test_code"].startswith("Check prints_each_call: every call prints its own mean, at run time\n")
    assert "Output: what is printed during call i must contain a number within 0.01" in prints["test_code"]
    assert all(t["test_code"] != t["name"] and "Rule it enforces" in t["test_code"] for t in data["tests"])
    # without the exercise (or its statement), the description alone
    alone = exercism_json(dataclasses.replace(verdict), None)
    assert alone["tests"][0]["test_code"].startswith("Check runs: ")
