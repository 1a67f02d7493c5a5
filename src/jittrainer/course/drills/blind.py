"""How well could a learner score without reading the cards? The expected score of blind strategies, exactly, and
the scores of seeded rounds played by the best of them.

A blind strategy answers from what a card shows without understanding it: its kind, its label ("count the
compiles"), its level, and the look of its choices (their length, whether they say "raises"). Choices are shuffled
per presentation (``present``), so a fixed position scores 1/n on an n-choice card; a content-based pick scores
1/k when the right choice is among the k choices it picks from; a true/false or count card scores 1 or 0. The
expected score of a strategy over the deck is the sum of those probabilities, computed from the cards, not sampled.

The combined player takes, for each kind of card, the strategy that scores best on that kind over the whole deck
(an oracle no real blind player has). The deck is built so that it expects at most ``TARGET`` of the deck, and that
the 95th percentile of its score over ``ROUND_SEEDS`` seeded rounds of ``ROUND_CARDS`` cards stays at most
``ROUND_TARGET`` (tests check both).
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from jittrainer.course.drills.model import Card

TARGET = 0.35
ROUND_TARGET = 0.50
ROUND_CARDS, ROUND_SEEDS = 30, 200
RAISE_WORDS = ("raise", "抛出")
ERROR_NAME = re.compile(r"[A-Z]\w*(Error|Exception)\b")  # "TypeError: ..." reads as raising without the word
CHOICE_KINDS = ("choice", "bug")
Pick = Callable[[list[str]], list[int]]


@dataclass(frozen=True)
class Strategy:
    kind: str  # the card kind it answers
    name: str
    expected: float  # expected number of right answers over the deck's cards of that kind
    # how it answers one card: the file numbers it picks among (choice kinds), or the answer it gives
    answers: Callable[[Card, tuple[int, ...]], object] | None = None


def _longest(texts: list[str]) -> list[int]:
    most = max(len(t) for t in texts)
    return [i for i, t in enumerate(texts, 1) if len(t) == most]


def _shortest(texts: list[str]) -> list[int]:
    least = min(len(t) for t in texts)
    return [i for i, t in enumerate(texts, 1) if len(t) == least]


def _raising(texts: list[str]) -> list[int]:
    return [i for i, t in enumerate(texts, 1) if any(w in t.lower() for w in RAISE_WORDS) or ERROR_NAME.search(t)]


def _not_raising(texts: list[str]) -> list[int]:
    raising = set(_raising(texts))
    return [i for i in range(1, len(texts) + 1) if i not in raising]


def _within(first: Pick, then: Pick) -> Pick:
    """``then`` among the choices ``first`` picks (all of them when it picks none)."""

    def pick(texts: list[str]) -> list[int]:
        among = first(texts) or list(range(1, len(texts) + 1))
        best = then([texts[i - 1] for i in among])
        return [among[j - 1] for j in best]

    return pick


CONTENT_PICKS: dict[str, Pick] = {
    "the longest choice": _longest,
    "the shortest choice": _shortest,
    "a choice that raises": _raising,
    "a choice that does not raise": _not_raising,
    "the longest choice that raises": _within(_raising, _longest),
    "the shortest choice that raises": _within(_raising, _shortest),
    "the longest choice that does not raise": _within(_not_raising, _longest),
}


def _candidates(card: Card, pick: Pick, lang: str) -> list[int]:
    """The file numbers (1-based) a content strategy picks uniformly among: every choice when it picks none."""
    return pick(list(card.text(lang).choices)) or list(range(1, len(card.choices) + 1))


def _choice_odds(card: Card, candidates: list[int]) -> float:
    return (card.answer in candidates) / len(candidates)


def _modal(cards: Sequence[Card], key: Callable[[Card], object]) -> dict[object, object]:
    """The modal answer of each group of cards (``key`` groups them); ties go to the first seen."""
    groups: dict[object, Counter] = defaultdict(Counter)
    for card in cards:
        groups[key(card)][_answer_key(card.answer)] += 1
    return {group: counts.most_common(1)[0][0] for group, counts in groups.items()}


def _answer_key(answer: object) -> object:
    return (type(answer).__name__, answer)


def strategies(cards: Sequence[Card], langs: Sequence[str] = ("en", "zh")) -> list[Strategy]:
    """Every blind strategy's expected right answers, per card kind (choice and spot-the-bug cards apart: a blind
    player sees the label)."""
    out: list[Strategy] = []
    by_kind: dict[str, list[Card]] = defaultdict(list)
    for card in cards:
        by_kind[card.kind].append(card)
    for kind in CHOICE_KINDS:
        picked = by_kind[kind]
        if not picked:
            continue
        for k in range(1, 5):
            out.append(Strategy(kind, f"always choice {k}", sum(1.0 / len(c.choices) for c in picked
                                                                 if k <= len(c.choices)),
                                lambda c, order, k=k: [order[k - 1]] if k <= len(order) else []))
        for lang in langs:
            for name, pick in CONTENT_PICKS.items():
                out.append(Strategy(kind, f"{name} ({lang})",
                                    sum(_choice_odds(c, _candidates(c, pick, lang)) for c in picked),
                                    lambda c, order, pick=pick, lang=lang: _candidates(c, pick, lang)))
    groupings: dict[str, Callable[[Card], object]] = {
        "the modal answer": lambda c: 0, "the modal answer per label": lambda c: c.label,
        "the modal answer per level": lambda c: c.level, "the modal answer per section": lambda c: c.section}
    for kind in ("truefalse", "count", "text"):
        group = by_kind[kind]
        if not group:
            continue
        for name, key in groupings.items():
            modal = _modal(group, key)
            right = sum(_answer_key(c.answer) == modal[key(c)] for c in group)
            out.append(Strategy(kind, name, float(right),
                                lambda c, order, modal=modal, key=key: modal.get(key(c), (None, None))[1]))
    return out


def best_by_kind(cards: Sequence[Card]) -> dict[str, Strategy]:
    """For each kind of card, the strategy that expects the most right answers on that kind."""
    best: dict[str, Strategy] = {}
    for strategy in strategies(cards):
        if strategy.kind not in best or strategy.expected > best[strategy.kind].expected:
            best[strategy.kind] = strategy
    return best


def best_blind(cards: Sequence[Card]) -> tuple[float, list[Strategy]]:
    """The combined blind player's expected score over ``cards`` (a share, 0..1), and the strategy it takes for
    each kind."""
    best = best_by_kind(cards)
    total = sum(s.expected for s in best.values())
    return (total / len(cards) if cards else 0.0), list(best.values())


def play(card: Card, order: tuple[int, ...], strategy: Strategy, rng: random.Random) -> bool:
    """Is ``strategy``'s answer to ``card`` right, its choices shown in ``order``? A pick among several choices
    is drawn with ``rng``."""
    assert strategy.answers is not None
    given = strategy.answers(card, order)
    if card.kind in CHOICE_KINDS:
        candidates = list(given) or list(order)  # type: ignore[call-overload]
        return rng.choice(candidates) == card.answer
    return card.is_correct(given)


def round_scores(cards: Sequence[Card], seeds: Sequence[int] = tuple(range(1, ROUND_SEEDS + 1)),
                 size: int = ROUND_CARDS) -> list[float]:
    """The combined blind player's share of right answers in one seeded round per seed: the round draws ``size``
    cards as a new learner's round does (``Scheduler.pick``: shuffled by the seed) and shuffles each card's
    choices from the seed (``present``)."""
    from jittrainer.course.drills.present import Shown

    best = best_by_kind(cards)
    scores = []
    for seed in seeds:
        shuffled = list(cards)
        random.Random(seed).shuffle(shuffled)  # Scheduler.pick's order for cards that are all new
        drawn = shuffled[:size]
        rng = random.Random(f"blind/{seed}")
        right = sum(play(c, Shown.of(c, seed).order, best[c.kind], rng) for c in drawn)
        scores.append(right / len(drawn) if drawn else 0.0)
    return scores


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value at or above ``share`` of ``values``."""
    ordered = sorted(values)
    rank = max(1, -(-int(round(share * 1000)) * len(ordered) // 1000))
    return ordered[min(rank, len(ordered)) - 1]
