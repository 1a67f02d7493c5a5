"""The deck cannot be passed blindly: the exact expected score of blind strategies, and blind players in real rounds."""

from __future__ import annotations

import io
import re
import textwrap

import pytest
from drillkit import CARDS, DRILLS, write_deck

from jittrainer.cli.drill import run_plain
from jittrainer.course.drills.blind import (
    ROUND_CARDS,
    ROUND_SEEDS,
    ROUND_TARGET,
    TARGET,
    best_blind,
    best_by_kind,
    percentile,
    round_scores,
    strategies,
)
from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.round import RoundOptions


@pytest.fixture(scope="module")
def bundled():
    return load_drills(DRILLS)


def test_the_best_blind_strategy_per_kind_expects_at_most_35_percent(bundled):
    """Each kind answered by its best strategy over the whole deck (content-based for choices: the longest, the
    shortest, one that raises, the longest or shortest that raises, one that does not; the modal answer for the
    others): an oracle combination no real blind player has, and still at most 35%."""
    score, best = best_blind(bundled.available)
    detail = ", ".join(f"{s.kind}: {s.name} ({s.expected:.2f})" for s in best)
    print(f"best blind strategy: {score:.2%} of {len(bundled.available)} cards: {detail}")
    assert {s.kind for s in best} == {"choice", "bug", "truefalse", "count", "text"}
    assert score <= TARGET, f"a learner who never reads the cards expects {score:.1%}: {detail}"


def test_the_combined_blind_player_stays_at_most_50_percent_in_95_percent_of_rounds(bundled):
    """Expectation hides the lucky rounds: 200 seeded rounds of 30 cards, drawn and shuffled as a new learner's
    rounds are, played by the combined strategy; the 95th percentile of their scores is at most 50%."""
    cards = [c for c in bundled.available if c.applies()]
    scores = round_scores(cards)
    p95 = percentile(scores, 0.95)
    print(f"combined blind player, {ROUND_SEEDS} rounds of {ROUND_CARDS}: mean {sum(scores) / len(scores):.1%}, "
          f"95th percentile {p95:.1%}, best {max(scores):.1%}")
    assert len(scores) == ROUND_SEEDS
    assert p95 <= ROUND_TARGET


def test_the_simulated_rounds_draw_the_cards_a_new_learner_is_asked(bundled, scheduler):
    cards = [c for c in bundled.available if c.applies()][:60]
    for seed in (1, 7, 200):
        shuffled = list(cards)
        import random

        random.Random(seed).shuffle(shuffled)
        assert [c.id for c in scheduler.pick(cards, count=ROUND_CARDS, seed=seed)] == [c.id for c in shuffled[:30]]


def test_percentile_is_the_nearest_rank():
    assert percentile([0.1 * i for i in range(1, 21)], 0.95) == pytest.approx(1.9)
    assert percentile([0.5], 0.95) == 0.5


def test_the_computation_catches_a_deck_that_gives_itself_away(tmp_path):
    """Every true/false card false and every choice card's right answer the only one that raises: the check fails."""
    cards = {}
    for n in range(6):
        cards[f"tf{n}"] = textwrap.dedent(CARDS["tf_false"]).replace('id = "tf_false"', f'id = "tf{n}"')
        cards[f"ch{n}"] = textwrap.dedent(CARDS["choice_one"]).replace('id = "choice_one"', f'id = "ch{n}"').replace(
            'choices = ["1", "2", "3"]', 'choices = ["1", "It raises TypeError", "3"]').replace(
            'observe = "stdout"', 'observe = "raises"\nexpect = "TypeError"')
    deck = load_drills(write_deck(tmp_path / "drills", cards))
    assert [p for c in deck.cards for p in c.problems] == []
    score, best = best_blind(deck.available)
    assert score == 1.0
    names = {s.kind: s.name for s in best}
    assert names["truefalse"] == "the modal answer" and names["choice"].startswith("the longest choice")
    assert all(s == 1.0 for s in round_scores(deck.available, seeds=(1, 2, 3), size=6))


@pytest.mark.parametrize(("choices", "answer", "winner"), [
    # the right choice raises, as one other does, and is the longer of the two (but not the longest of all)
    ('["It returns 2 with a long, long explanation", "It raises TypeError: no", "It raises IndexError"]', 2,
     "the longest choice that raises"),
    # the right choice is the only one that does not raise
    ('["It raises TypeError", "It returns 2, the sum", "It raises IndexError: index 5 is out of range"]', 2,
     "a choice that does not raise"),
    # an exception's name reads as raising even without the word
    ('["TypeError: no", "It returns 2, the sum", "IndexError: index 5 is out of range"]', 2,
     "a choice that does not raise"),
])
def test_content_strategies_find_what_choices_give_away(tmp_path, choices, answer, winner):
    cards = {}
    for n in range(4):
        cards[f"ch{n}"] = textwrap.dedent(CARDS["choice_one"]).replace('id = "choice_one"', f'id = "ch{n}"').replace(
            'choices = ["1", "2", "3"]', f"choices = {choices}").replace("answer = 2", f"answer = {answer}").replace(
            'observe = "stdout"', 'observe = "answer"\nexpect = "2"' if winner.endswith("not raise")
            else 'observe = "raises"\nexpect = "TypeError"')
    deck = load_drills(write_deck(tmp_path / "drills", cards))
    assert [p for c in deck.cards for p in c.problems] == []
    best = best_by_kind(deck.available)["choice"]
    assert best.expected == 4.0 and best.name.startswith(winner), best


def test_shuffled_positions_are_worth_one_in_n(deck):
    by_name = {s.name: s.expected for s in strategies(deck.available) if s.kind == "choice"}
    assert by_name["always choice 1"] == pytest.approx(1 / 3)  # choice_one has 3 choices
    assert by_name["always choice 4"] == 0


def test_the_deck_is_balanced_where_blind_play_would_look(bundled):
    cards = bundled.available
    tf = [c for c in cards if c.kind == "truefalse"]
    assert sum(c.answer is True for c in tf) >= 0.4 * len(tf), "at least 40% of true/false cards are true"
    for level in ("easy", "medium", "hard"):
        group = [c for c in tf if c.level == level]
        true = sum(c.answer is True for c in group)
        assert group and 0.35 <= true / len(group) <= 0.65, f"{level}: {true} of {len(group)} true"


# ------------------------------------------------------------------------------------------ blind players


PROMPT = re.compile(r"answer \(([^)]*)\)> $")


class BlindPlayer(io.StringIO):
    """Answers from the prompt alone (the kind of answer the card asks for), never from the card: what a learner
    who games the round would type. Reads the transcript written so far to see the last prompt."""

    def __init__(self, out: io.StringIO, answers: dict[str, str]) -> None:
        super().__init__()
        self.out, self.answers, self.asks = out, answers, 0

    def readline(self, *args) -> str:  # type: ignore[override]
        self.asks += 1
        if self.asks > 5000:
            return ""
        tail = self.out.getvalue()[-300:]
        match = PROMPT.search(tail)
        how = match.group(1) if match else ""
        lines = tail.splitlines()
        if len(lines) >= 2 and lines[-2].startswith("  ("):  # asked again: try an answer of the right kind
            return {"t or f": "f", "a number": "0"}.get(how, "1") + "\n"
        if how.startswith("1-"):
            return self.answers["choice"] + "\n"
        return self.answers.get(how, self.answers["other"]) + "\n"


BLIND = {
    "always 2 / f": {"choice": "2", "t or f": "f", "a number": "2", "other": "2"},
    "always 1 / t": {"choice": "1", "t or f": "t", "a number": "1", "other": "1"},
    "always 3 / t": {"choice": "3", "t or f": "t", "a number": "3", "other": "(4, 2)"},
    "the audit's: 2 for all": {"choice": "2", "t or f": "2", "a number": "2", "other": "2"},
}


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("name", list(BLIND))
def test_blind_players_score_at_most_35_percent_in_seeded_rounds(bundled, seed, name):
    cards = [c for c in bundled.available if c.applies()]
    out = io.StringIO()
    player = BlindPlayer(out, BLIND[name])
    summary = run_plain(bundled, cards, RoundOptions(count=len(cards), seed=seed), None, player, out)
    assert summary.asked == len(cards)
    share = summary.right / summary.asked
    print(f"{name}, seed {seed}: {summary.right}/{summary.asked} = {share:.1%}")
    assert share <= TARGET
    if name == "the audit's: 2 for all":
        assert "(this card has no numbered choices" in out.getvalue()  # a 2 for a true/false card: asked again


def test_a_seed_repeats_a_rounds_choices(bundled):
    cards = [c for c in bundled.available if c.kind == "choice"][:20]
    first, second, other = io.StringIO(), io.StringIO(), io.StringIO()
    for out, seed in ((first, 7), (second, 7), (other, 8)):
        run_plain(bundled, cards, RoundOptions(count=20, seed=seed), None, io.StringIO("?\n" * 20), out)
    assert first.getvalue() == second.getvalue()
    assert first.getvalue() != other.getvalue()
    assert "Seed 7: --seed 7 shuffles the cards and their choices the same way again" in first.getvalue()
