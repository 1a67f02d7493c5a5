"""How well could a learner score without reading the cards? The expected score of blind strategies, exactly.

A blind strategy answers from what a card shows without understanding it: its kind, its label ("count the
compiles"), its level, and the look of its choices. Choices are shuffled per presentation (``present``), so a fixed
position scores 1/n on an n-choice card; a true/false or count card scores 1 or 0. The expected score of a strategy
over the deck is the sum of those probabilities, computed from the cards, not sampled. The deck is built so that the
best of these stays at or under ``TARGET`` (a test checks it).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from jittrainer.course.drills.model import Card

TARGET = 0.40
RAISE_WORDS = ("raise", "抛出")


@dataclass(frozen=True)
class Strategy:
    kind: str  # the card kind it answers
    name: str
    expected: float  # expected number of right answers over the deck's cards of that kind


def _choice_odds(card: Card, pick: Callable[[list[str]], list[int]], lang: str) -> float:
    """P(right) when the learner picks uniformly among the choices ``pick`` returns (file numbers, 1-based)."""
    texts = list(card.text(lang).choices)
    chosen = pick(texts)
    if not chosen:
        return 1.0 / len(texts)
    return (card.answer in chosen) / len(chosen)


def _longest(texts: list[str]) -> list[int]:
    most = max(len(t) for t in texts)
    return [i for i, t in enumerate(texts, 1) if len(t) == most]


def _shortest(texts: list[str]) -> list[int]:
    least = min(len(t) for t in texts)
    return [i for i, t in enumerate(texts, 1) if len(t) == least]


def _raising(texts: list[str]) -> list[int]:
    return [i for i, t in enumerate(texts, 1) if any(w in t.lower() for w in RAISE_WORDS)]


def _grouped_constant(cards: Sequence[Card], key: Callable[[Card], object]) -> float:
    """Right answers of the best constant answer per group of cards (the modal answer of each group)."""
    groups: dict[object, Counter] = defaultdict(Counter)
    for card in cards:
        groups[key(card)][repr(card.answer)] += 1
    return float(sum(max(counts.values()) for counts in groups.values()))


def strategies(cards: Sequence[Card], langs: Sequence[str] = ("en", "zh")) -> list[Strategy]:
    """Every blind strategy's expected right answers, per card kind."""
    out: list[Strategy] = []
    by_kind: dict[str, list[Card]] = defaultdict(list)
    for card in cards:
        by_kind["choice" if card.kind == "bug" else card.kind].append(card)
    picked = by_kind["choice"]
    if picked:
        for k in range(1, 5):
            out.append(Strategy("choice", f"always choice {k}",
                                sum(1.0 / len(c.choices) for c in picked if k <= len(c.choices))))
        for lang in langs:
            for name, pick in (("longest", _longest), ("shortest", _shortest), ("one that raises", _raising)):
                out.append(Strategy("choice", f"the {name} choice ({lang})",
                                    sum(_choice_odds(c, pick, lang) for c in picked)))
    for kind in ("truefalse", "count", "text"):
        group = by_kind[kind]
        if not group:
            continue
        out.append(Strategy(kind, "the modal answer", _grouped_constant(group, lambda c: 0)))
        out.append(Strategy(kind, "the modal answer per label", _grouped_constant(group, lambda c: c.label)))
        out.append(Strategy(kind, "the modal answer per level", _grouped_constant(group, lambda c: c.level)))
        if kind == "truefalse":
            out.append(Strategy(kind, "the modal answer per section", _grouped_constant(group, lambda c: c.section)))
    return out


def best_blind(cards: Sequence[Card]) -> tuple[float, list[Strategy]]:
    """The best blind score over ``cards`` (a share, 0..1) and the strategy it takes for each kind."""
    best: dict[str, Strategy] = {}
    for strategy in strategies(cards):
        if strategy.kind not in best or strategy.expected > best[strategy.kind].expected:
            best[strategy.kind] = strategy
    total = sum(s.expected for s in best.values())
    return (total / len(cards) if cards else 0.0), list(best.values())
