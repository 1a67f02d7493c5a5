"""Card proofs: judged from a worker's observations, and run for real in grading workers (jax in the child only)."""

from __future__ import annotations

import textwrap
import time

import pytest

from drillkit import CARDS, DRILLS, write_deck

from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.proofs import judge_proof, prove_cards, verify_cards


def _run(**facts):
    return {"ok": True, "stdout": "", "raised": None, "traces": {}, "compiles": {}, "jax_version": "9.9", **facts}


def _card(tmp_path, name, text):
    cards = {name: textwrap.dedent(text)}
    return load_drills(write_deck(tmp_path / "drills", cards)).find(name)


COUNT_CARD = """
    format_version = 1
    id = "compiles_card"
    topic = "alpha"
    kind = "count"
    question = "How many compiles?"
    code = '''
    f = jax.jit(lambda x: x + 1)
    '''
    answer = 2
    explanation = "."

    [proof]
    observe = "compiles"
    function = "f"
    """


# --------------------------------------------------------------------------------------------------- judging


def test_stdout_is_compared_line_by_line(deck):
    card = deck.find("choice_one")
    assert judge_proof(card, _run(stdout="2\n")).ok
    bad = judge_proof(card, _run(stdout="3\n"), "drills/cards/choice_one.toml")
    assert not bad.ok
    assert bad.problem == ("drills/cards/choice_one.toml: the card's answer (choice 2) needs '2', but running its "
                           "proof on jax 9.9 gave '3'")


def test_compiles_count_jit_names_only_for_the_named_function(tmp_path):
    card = _card(tmp_path, "compiles_card", COUNT_CARD)
    assert judge_proof(card, _run(compiles={"jit(f)": 2, "jit(add)": 5}, traces={"f": 2})).ok
    result = judge_proof(card, _run(compiles={"jit(f)": 3}))
    assert not result.ok and "gave 3 compiles of f" in result.problem


def test_an_unexpected_exception_fails_the_card(deck):
    raised = {"type": "ZeroDivisionError", "mro": ["ZeroDivisionError"], "message": "division by zero"}
    result = judge_proof(deck.find("count_two"), _run(raised=raised))
    assert not result.ok and "the proof raised ZeroDivisionError: division by zero" in result.problem


def test_raises_matches_the_exact_class(tmp_path):
    text = textwrap.dedent(CARDS["choice_one"]).replace('observe = "stdout"', 'observe = "raises"\nexpect = "TypeError"')
    card = _card(tmp_path, "choice_one", text)
    sub = {"type": "TracerBoolConversionError", "mro": ["TracerBoolConversionError", "TypeError"], "message": ""}
    assert judge_proof(card, _run(raised={"type": "TypeError", "mro": ["TypeError"], "message": "x"})).ok
    assert not judge_proof(card, _run(raised=sub)).ok
    assert "gave no exception" in judge_proof(card, _run()).problem


def test_truefalse_needs_a_real_bool(deck):
    card = deck.find("tf_false")
    assert judge_proof(card, _run(answer=False)).ok
    assert not judge_proof(card, _run(answer=0)).ok
    assert "never set the variable `answer`" in judge_proof(card, _run()).problem


def test_a_worker_failure_is_a_problem_not_a_crash(deck):
    result = judge_proof(deck.find("count_two"), {"ok": False, "error": "timed out after 1 s"})
    assert not result.ok and result.problem.endswith("the proof did not run: timed out after 1 s")


def test_a_failed_premise_is_reported_as_such(deck):
    raised = {"type": "AssertionError", "mro": ["AssertionError"], "message": "this card assumes 4 devices"}
    result = judge_proof(deck.find("count_two"), _run(setup_raised=raised))
    assert not result.ok and "the question's premise does not hold here" in result.problem


# ------------------------------------------------------------------------------------------- real workers


@pytest.mark.worker
def test_verify_passes_right_cards_and_fails_a_wrong_one(tmp_path):
    cards = dict(CARDS)
    # Deliberately wrong: the snippet prints 2, the card claims choice 3.
    cards["wrong_answer"] = textwrap.dedent(CARDS["choice_one"]).replace('id = "choice_one"', 'id = "wrong_answer"') \
        .replace("answer = 2", "answer = 3")
    cards["compiles_card"] = COUNT_CARD  # one jit, never called: 0 compiles, not 2
    deck = load_drills(write_deck(tmp_path / "drills", cards))
    lines = []
    problems = verify_cards(deck, jobs=4, on_result=lambda line, ok: lines.append((ok, line)))
    assert len(problems) == 2, problems
    assert any(p.startswith("drills/cards/wrong_answer.toml: the card's answer (choice 3) needs '3'")
               and p.endswith("gave '2'") for p in problems)
    assert any(p.startswith("drills/cards/compiles_card.toml:") and "gave 0 compiles of f" in p for p in problems)
    assert sum(ok for ok, _ in lines) == len(CARDS)


@pytest.mark.worker
def test_real_observations_traces_compiles_and_exceptions(tmp_path):
    cards = {
        "counted": """
            format_version = 1
            id = "counted"
            topic = "alpha"
            kind = "count"
            question = "?"
            code = '''
            @jax.jit
            def f(x):
                return x * 2
            for n in (1, 2, 2, 3):
                f(jnp.ones(n))
            '''
            answer = 3
            explanation = "."

            [proof]
            observe = "compiles"
            function = "f"
            """,
        "raising": """
            format_version = 1
            id = "raising"
            topic = "alpha"
            kind = "choice"
            question = "?"
            code = '''
            jax.jit(lambda x: 1 if x > 0 else 0)(1.0)
            '''
            choices = ["works", "raises TracerBoolConversionError"]
            answer = 2
            explanation = "."

            [proof]
            observe = "raises"
            expect = "TracerBoolConversionError"
            """,
        "helpers": """
            format_version = 1
            id = "helpers"
            topic = "beta"
            kind = "truefalse"
            question = "?"
            answer = true
            explanation = "."

            [proof]
            code = '''
            g = jax.jit(lambda x: x)
            g(1.0); g(2.0); g(jnp.ones(2))
            answer = traces("<lambda>") == 2 and compiles("<lambda>") == 2
            '''
            """,
    }
    deck = load_drills(write_deck(tmp_path / "drills", cards))
    assert verify_cards(deck, jobs=3) == []


@pytest.mark.worker
def test_hostile_proofs_fail_cleanly(tmp_path):
    base = textwrap.dedent(CARDS["tf_false"])
    cards = {
        "sleeps": base.replace('id = "tf_false"', 'id = "sleeps"')
        .replace('code = "answer = 1 + 1 == 3"', 'code = "import time; time.sleep(60)"\ntimeout_s = 2'),
        "exits": base.replace('id = "tf_false"', 'id = "exits"').replace('code = "answer = 1 + 1 == 3"',
                                                                         'code = "import os; os._exit(3)"'),
        "sysexit": base.replace('id = "tf_false"', 'id = "sysexit"').replace('code = "answer = 1 + 1 == 3"',
                                                                             'code = "raise SystemExit(0)"'),
    }
    deck = load_drills(write_deck(tmp_path / "drills", cards))
    started = time.monotonic()
    results = {r.card: r for r in prove_cards(deck.cards, jobs=3)}
    assert time.monotonic() - started < 30
    assert "the proof did not run: timed out after 2 s" in results["sleeps"].problem
    assert "the proof did not run" in results["exits"].problem
    assert "the proof raised SystemExit" in results["sysexit"].problem


def test_unavailable_cards_are_reported_without_running(tmp_path):
    cards = dict(CARDS)
    cards["choice_one"] = textwrap.dedent(CARDS["choice_one"]).replace("answer = 2", "answer = 9")

    def must_not_run(*args, **kwargs):
        raise AssertionError("an unavailable card must not be run")

    deck = load_drills(write_deck(tmp_path / "drills", cards))
    results = prove_cards([deck.find("choice_one")], run_task=must_not_run)
    assert not results[0].ok and "answer:" in results[0].problem


@pytest.mark.worker
def test_every_bundled_card_is_proved_on_the_installed_jax():
    """The whole deck, as `jittrainer validate` runs it: each card's proof in a fresh worker."""
    deck = load_drills(DRILLS)
    started = time.monotonic()
    problems = verify_cards(deck)
    assert problems == [], "\n".join(problems)
    assert len(deck.available) >= 40
    print(f"{len(deck.cards)} cards proved in {time.monotonic() - started:.1f} s")


# ------------------------------------------------------------------------------------------ accelerator cards

PLATFORM_CARD = """
    format_version = 1
    id = "tpu_card"
    topic = "alpha"
    kind = "truefalse"
    platform = "tpu"
    question = "On a TPU, three ones add up to 3."
    answer = true
    explanation = "."

    [proof]
    proved_on = "TPU v5e, jax 0.10.2"
    code = "answer = bool(jnp.ones(3).sum() == 3)"
    """


def test_a_card_about_an_accelerator_is_not_proved_by_cpu_workers(tmp_path):
    card = _card(tmp_path, "tpu_card", PLATFORM_CARD)
    assert card.available and card.platform == "tpu" and card.proof.proved_on == "TPU v5e, jax 0.10.2"
    lines = []

    def must_not_run(card):
        raise AssertionError("validate's workers run on CPU devices: a TPU card's proof must not run there")

    results = prove_cards([card], run_task=must_not_run, on_result=lambda line, ok: lines.append((ok, line)))
    assert results[0].ok and results[0].skipped
    assert lines[0][0] and "not proved here" in lines[0][1] and "proved on TPU v5e, jax 0.10.2" in lines[0][1]


ON_PLATFORM = """
import sys
from jittrainer.course.drills import onplatform
from jittrainer.course.drills.loader import load_drills

card = load_drills(sys.argv[1]).find("tpu_card")
refused = onplatform.prove_here(card)  # this process runs on the CPU
card.platform = "cpu"  # the same runner and judgement, on the backend at hand
proved = onplatform.prove_here(card)
card.answer = False
wrong = onplatform.prove_here(card)
print(refused.ok, refused.problem, proved.ok, wrong.ok, wrong.problem, sep="\\n")
"""


@pytest.mark.worker
def test_onplatform_proves_in_its_own_process_and_refuses_another_backend(tmp_path, capsys):
    """Run in a child process, as on the accelerator machine: jax stays out of the test process."""
    import os
    import subprocess
    import sys

    from jittrainer.course.drills import onplatform

    root = write_deck(tmp_path / "drills", {"tpu_card": textwrap.dedent(PLATFORM_CARD)})
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    run = subprocess.run([sys.executable, "-c", ON_PLATFORM, str(root)], capture_output=True, text=True, env=env,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    refused_ok, refused, proved_ok, wrong_ok, wrong = run.stdout.strip().splitlines()[-5:]
    assert refused_ok == "False" and "this process runs on cpu" in refused
    assert proved_ok == "True"
    assert wrong_ok == "False" and "gave answer = True" in wrong
    assert onplatform.main(["no_such_card"]) == 1 and "no card with a platform" in capsys.readouterr().out
