"""Loading drill cards: the bundled deck is complete, and a malformed card is unavailable, naming file and field."""

from __future__ import annotations

import re
import textwrap
from collections import Counter

import pytest

from drillkit import CARDS, DRILLS, write_deck
from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.model import KINDS, AnswerError, normalize_output, normalize_typed
from jittrainer.course.drills.render import render_sections

COURSE_TOPICS = ["trace_time", "callbacks", "control_flow", "shapes", "static", "recompiles", "state",
                 "memory_timing", "parallelism", "training_step", "caches", "explicit_sharding", "autodiff", "accelerator"]


# ------------------------------------------------------------------------------------------------ bundled deck


@pytest.fixture(scope="module")
def bundled():
    return load_drills(DRILLS)


def test_bundled_deck_loads_cleanly(bundled):
    assert bundled.problems == []
    broken = [p for c in bundled.cards for p in c.problems]
    assert broken == []
    assert len(bundled.available) >= 150


def test_bundled_deck_covers_every_core_pitfall_and_kind(bundled):
    by_topic = Counter(c.topic for c in bundled.available)
    assert list(bundled.topics) == COURSE_TOPICS  # one topic list, in course order, for exercises and cards
    for topic in COURSE_TOPICS:  # a round on one topic has enough to ask, and a mock interview can weigh topics
        assert by_topic[topic] >= 6, f"topic {topic} has only {by_topic[topic]} cards"
    kinds = Counter(c.kind for c in bundled.available)
    assert set(kinds) == set(KINDS)
    observes = {c.proof.observe for c in bundled.available}
    assert {"stdout", "lines", "traces", "compiles", "raises", "answer"} <= observes
    assert sum(c.section == "misconception" for c in bundled.available) >= 30
    untranslated = [c.id for c in bundled.available if "zh" not in c.translations]
    assert untranslated == [], "cards without their Chinese text"


def test_topics_lead_to_the_exercises_that_teach_them(bundled):
    from jittrainer.course.exercises import load_exercises

    for ex in load_exercises(DRILLS.parent):
        if ex.available:
            assert ex.id in bundled.practice[ex.topic]


@pytest.mark.parametrize(("card_id", "true"), [("if_on_scalar_argument", False), ("frozen_at_first_trace", False),
                                               ("shape_is_static", True), ("assert_shape_per_trace", True)])
def test_the_named_misconceptions_are_cards(bundled, card_id, true):
    """Some misconceptions are asked as the belief (false), others as the corrected belief (true)."""
    card = bundled.find(card_id)
    assert card.section == "misconception" and card.kind == "truefalse" and card.answer is true


def test_the_deck_size_and_levels(bundled):
    from jittrainer.course.drills.model import LEVELS

    cards = bundled.available
    assert len(cards) >= 265
    levels = Counter(c.level for c in cards)
    assert set(levels) == set(LEVELS) and levels["hard"] >= 0.25 * len(cards), levels
    undeclared = [c.id for c in cards if not re.search(r'^level = "', c.path.read_text(), re.M)]
    assert undeclared == [], "every card says its level (the default is not a level anyone chose)"


def test_retired_cards_stay_retired(bundled):
    """Cards the third and fourth audits retired: their schedules stay in learners' progress files, unused."""
    retired = {"append_once", "block_until_ready_returns_array", "cache_size_not_compiles", "donate_numpy_input",
               "io_callback_ordered_vmap", "jit_rereads_globals", "print_never_runs", "eager_ops_compile",
               "fori_loop_static_grad", "jit_never_adds_work", "memory_analysis_output_bytes", "pmap_unbound_axis",
               "static_n_traces",
               # the fourth audit's trivia: NumPy's dispatch to .mean, eager cache entries per dtype, a default fill
               "numpy_mean_defers", "eager_op_per_dtype", "unique_default_fill"}
    assert retired.isdisjoint(c.id for c in bundled.cards)


def test_every_card_stands_alone(bundled):
    """Rounds are shuffled, so no question may lean on a card the learner may not have seen (the fourth audit found
    five: "the previous card", "n is now static", "the padding moved", "the psum is gone", "the same matmul as")."""
    leaning = re.compile(r"previous card|earlier card|is now static|moved inside|is gone|the same \w+ as on", re.I)
    assert [c.id for c in bundled.available if leaning.search(c.question)] == []


def test_accelerator_cards_say_where_they_were_proved(bundled):
    """A card about a TPU's behaviour is proved there (validate's workers run on CPU devices): few, and each names
    the machine and JAX its proof passed on."""
    on_platform = [c for c in bundled.available if c.platform]
    assert 1 <= len(on_platform) <= 5
    for card in on_platform:
        assert card.platform == "tpu" and card.proof.proved_on.startswith("TPU")
        assert "TPU" in card.question or "TPU" in card.explanation


def test_chinese_code_has_chinese_comments(bundled):
    from jittrainer.course.drills.model import code_comments

    for card in bundled.available:
        # the snippet, and the proof the app shows on p
        for comment in code_comments(card.code_in("zh")) + code_comments(card.proof_code_in("zh")):
            assert re.search("[\u4e00-\u9fff]", comment) or not re.search("[A-Za-z]{3}", comment), (card.id, comment)
    bug = bundled.find("prng_global_key_bug")
    assert "# 第 1 行" in bug.code_in("zh") and "# line 1" in bug.code_in("en")
    assert "第 1 行" in bug.text("zh").choices[0] or any("第 1 行" in c for c in bug.text("zh").choices)


def test_every_choice_card_answer_is_a_real_choice(bundled):
    for card in bundled.available:
        if card.kind in ("choice", "bug"):
            assert 2 <= len(card.choices) <= 4
            assert 1 <= card.answer <= len(card.choices)


def test_the_exercise_loader_ignores_the_drills_folder():
    from jittrainer.course.exercises import load_exercises

    assert all(ex.dir.name != "drills" for ex in load_exercises(DRILLS.parent))


def test_markdown_sections_fill_the_article(bundled):
    text = render_sections(bundled)
    assert "## 常见误区 — Common misconceptions" in text and "## 面试题 — Interview questions" in text
    assert text.count("*Answer:*") == len(bundled.available)


# ------------------------------------------------------------------------------------------------ bad cards


def _problems(tmp_path, name, text):
    cards = dict(CARDS)
    cards[name] = text
    deck = load_drills(write_deck(tmp_path / "drills", cards))
    card = deck.find(name)
    others = [c for c in deck.cards if c.id != name]
    assert all(c.available for c in others), "one bad card must not break the others"
    assert len(deck.cards) == len(cards)
    return card.problems


GOOD = textwrap.dedent(CARDS["choice_one"])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (("format_version = 1", "format_version = 2"), "format_version"),
        (("format_version = 1\n", ""), "format_version: missing"),
        (('id = "choice_one"', 'id = "other"'), "id:"),
        (('topic = "alpha"', 'topic = "gamma"'), "topic:"),
        (('kind = "choice"', 'kind = "essay"'), "kind:"),
        (("answer = 2", "answer = 5"), "answer:"),
        (("answer = 2", 'answer = "2"'), "answer:"),
        (("answer = 2\n", ""), "answer: missing"),
        (('choices = ["1", "2", "3"]', 'choices = ["1"]'), "choices:"),
        (('choices = ["1", "2", "3"]', 'choices = ["1", "1", "3"]'), "choices: two choices are the same"),
        (('explanation = "Two."', 'explanation = ""'), "explanation:"),
        (('question = "What does it print?"\n', ""), "question: missing"),
        (('observe = "stdout"', 'observe = "vibes"'), "proof.observe:"),
        (('observe = "stdout"', 'observe = "compiles"'), "proof.function:"),
        (("[proof]\nobserve = \"stdout\"", ""), "[proof]: missing"),
        (("print(1 + 1)", "print(1 +"), "code: not valid Python"),
        (('kind = "choice"', 'kind = "choice"\nseconds = 1'), "seconds:"),
        (('kind = "choice"', 'kind = "choice"\nsection = "trivia"'), "section:"),
        (('kind = "choice"', 'kind = "choice"\nlevel = "expert"'), "level:"),
        (('kind = "choice"', 'kind = "choice"\njax = "newest"'), "jax: not a version range"),
        (('kind = "choice"', 'kind = "choice"\nplatform = "fpga"'), "platform:"),
        (('kind = "choice"', 'kind = "choice"\nplatform = "tpu"'), "proof.proved_on: a card about a TPU"),
        (('observe = "stdout"', 'observe = "stdout"\nproved_on = "TPU v5e"'), "proof.proved_on: only a card with a platform"),
    ],
)
def test_a_malformed_card_names_file_and_field(tmp_path, change, field):
    old, new = change
    assert old in GOOD
    problems = _problems(tmp_path, "choice_one", GOOD.replace(old, new, 1))
    assert problems, "the card should be unavailable"
    assert any(p.startswith("drills/cards/choice_one.toml: ") and field in p for p in problems), problems


def test_invalid_toml_is_an_unavailable_card(tmp_path):
    problems = _problems(tmp_path, "broken", "format_version = 1\nid = 'broken\n")
    assert problems and problems[0].startswith("drills/cards/broken.toml: not valid TOML")


def test_kind_and_observe_must_fit(tmp_path):
    text = textwrap.dedent(CARDS["tf_false"]).replace("[proof]", "[proof]\nobserve = \"stdout\"")
    problems = _problems(tmp_path, "tf_false", text)
    assert any("proof.observe: a truefalse card cannot be proved by 'stdout'" in p for p in problems)


def test_choice_card_proved_by_a_count_needs_expect(tmp_path):
    text = GOOD.replace('observe = "stdout"', 'observe = "lines"')
    problems = _problems(tmp_path, "choice_one", text)
    assert any("proof.expect: missing" in p for p in problems)


RAISES = GOOD.replace('choices = ["1", "2", "3"]', 'choices = ["2", "TypeError: no", "ValueError"]').replace(
    'observe = "stdout"', 'observe = "raises"\nexpect = "TypeError"')


@pytest.mark.parametrize(
    ("choices", "answer", "expect", "problem"),
    [
        (None, 2, None, None),  # the right choice names the exception: clean
        ('["2", "ValueError", "TypeError: no"]', 2, None, "answer: choice 2 does not name what the proof must yield"),
        ('["TypeError", "TypeError: no", "3"]', 2, None, "choices: 'TypeError', what the proof must yield, appears in"),
        (None, 2, 'observe = "answer"\nexpect = true', "proof.expect: a choice card proved by `answer` expects"),
        (None, 3, 'observe = "answer"\nexpect = "TypeError"', "answer: choice 3 does not name"),
        (None, 2, 'observe = "answer"\nexpect = "TypeError"', None),
    ],
)
def test_a_choice_answer_is_linked_to_what_its_proof_yields(tmp_path, choices, answer, expect, problem):
    text = RAISES
    if choices:
        text = text.replace('choices = ["2", "TypeError: no", "ValueError"]', f"choices = {choices}")
    text = text.replace("answer = 2", f"answer = {answer}")
    if expect:
        text = text.replace('observe = "raises"\nexpect = "TypeError"', expect)
    problems = _problems(tmp_path, "choice_one", text)
    if problem is None:
        assert problems == []
    else:
        assert any(problem in p for p in problems), problems


def test_missing_topics_file_is_a_deck_problem(tmp_path):
    root = write_deck(tmp_path / "drills")
    (root.parent / "topics.toml").unlink()
    deck = load_drills(root)
    assert any("topics.toml: file is missing" in p for p in deck.problems)
    assert len(deck.cards) == len(CARDS)


def test_no_folder_is_a_deck_problem(tmp_path):
    deck = load_drills(tmp_path / "nowhere")
    assert deck.cards == [] and "no drills folder" in deck.problems[0]


# ---------------------------------------------------------------------------------------------------- answers


def test_answers_are_parsed_per_kind(deck):
    choice, count, tf, text = (deck.find(i) for i in ("choice_one", "count_two", "tf_false", "text_hi"))
    assert choice.parse("2") == 2 and choice.parse(" b ") == 2 and choice.is_correct(2)
    assert not choice.is_correct(1)
    with pytest.raises(AnswerError):
        choice.parse("4")
    with pytest.raises(AnswerError):
        choice.parse("")
    assert count.parse("2") == 2 and count.is_correct(2) and not count.is_correct(True)
    with pytest.raises(AnswerError):
        count.parse("two")
    assert tf.parse("F") is False and tf.parse("true") is True and tf.parse("对") is True
    assert tf.is_correct(False) and not tf.is_correct(True)
    with pytest.raises(AnswerError):
        tf.parse("maybe")
    # An answer of the wrong kind is refused, so a blind "2" or "f" for every card is asked again, not scored.
    with pytest.raises(AnswerError, match="no numbered choices"):
        tf.parse("2")
    with pytest.raises(AnswerError, match="not true or false"):
        choice.parse("f")
    with pytest.raises(AnswerError, match="not true or false"):
        count.parse("t")
    assert text.is_correct(text.parse("  hi   there ")) and not text.is_correct(text.parse("hi"))


def test_typed_answers_ignore_spacing_but_not_words():
    assert normalize_typed("(4,2)") == normalize_typed(" ( 4, 2 ) ") == "(4,2)"
    assert normalize_typed("[100.   2.   3.]") == normalize_typed("[100. 2. 3.]")
    assert normalize_typed("hi  there") != normalize_typed("hithere")


def test_output_normalization():
    assert normalize_output("\n  a  \nb \n\n") == "  a\nb"
    assert normalize_output("x\r\ny") == "x\ny"
