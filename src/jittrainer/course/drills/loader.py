"""Loading drill cards: ``cards/*.toml`` under the drills folder, checked field by field.

A malformed card still loads, as an unavailable card whose ``problems`` name the file and the field, so one broken
card never hides the others. Topics are the course's (``exercises/topics.toml``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jittrainer.course.drills.model import (
    DEFAULT_LEVEL,
    DEFAULT_SECONDS,
    FORMAT_VERSION,
    ID_RE,
    KIND_OBSERVES,
    KINDS,
    LEVELS,
    MAX_CHOICES,
    MAX_SECONDS,
    MIN_SECONDS,
    NO_EXCEPTION,
    OBSERVES,
    PLATFORMS,
    PROOF_TIMEOUT_S,
    SECTIONS,
    Card,
    CardText,
    Deck,
    normalize_output,
)
from jittrainer.course.versions import VersionRangeError, check_range
from jittrainer.course.schema import Fields, read_toml
from jittrainer.course.topics import Topic, load_topics

TRANSLATED = ("zh",)  # languages a card may carry as a table: [zh] question = "…", choices = […], explanation = "…"


def default_root() -> Path:
    """``drills/`` beside the exercises ($JITTRAINER_DRILLS overrides it)."""
    env = os.environ.get("JITTRAINER_DRILLS")
    if env:
        return Path(env).expanduser()
    from jittrainer.course.exercises import default_root as exercises_root

    return exercises_root() / "drills"


def load_drills(root: Path | None = None) -> Deck:
    """The course's topics and every ``cards/*.toml`` under ``root``, sorted by topic order then id; never raises
    for bad data."""
    root = Path(root) if root is not None else default_root()
    deck = Deck(root=root)
    if not root.is_dir():
        deck.problems.append(f"{root}: no drills folder there")
        return deck
    deck.topics = load_topics(root.parent, deck.problems)
    deck.practice = _exercises_by_topic(root.parent)
    cards_dir = root / "cards"
    files = sorted(cards_dir.glob("*.toml")) if cards_dir.is_dir() else []
    if not files:
        deck.problems.append(f"{_name(cards_dir, root)}: no card files (*.toml)")
    seen: dict[str, Card] = {}
    for path in files:
        card = load_card(path, deck.topics, root)
        if card.id in seen:
            card.problems.append(f"{_name(path, root)}: id: {card.id!r} is also used by {seen[card.id].path.name}")
        seen.setdefault(card.id, card)
        deck.cards.append(card)
    order = {topic: i for i, topic in enumerate(deck.topics)}
    deck.cards.sort(key=lambda c: (order.get(c.topic, len(order)), c.id))
    return deck


def _name(path: Path, root: Path) -> str:
    try:
        return f"{root.name}/{path.relative_to(root)}"
    except ValueError:
        return str(path)


def _exercises_by_topic(exercises_root: Path) -> dict[str, list[str]]:
    """The exercises that teach each topic, in course order: where a round's weak topics send the learner."""
    from jittrainer.course.exercises import load_exercises

    found: dict[str, list[str]] = {}
    for ex in load_exercises(exercises_root):
        if ex.available and ex.topic:
            found.setdefault(ex.topic, []).append(ex.id)
    return found


def load_card(path: Path, topics: dict[str, Topic], root: Path | None = None) -> Card:
    card = Card(id=path.stem, path=path)
    name = _name(path, root) if root is not None else path.name
    data = read_toml(path, name, card.problems)
    if data is not None:
        _read_card(card, data, Fields(name, card.problems), topics)
    return card


def _read_card(card: Card, data: dict[str, Any], fields: Fields, topics: dict[str, Topic]) -> None:
    bad = fields.bad
    fields.format_version(data, FORMAT_VERSION)
    card_id = fields.text(data, "id")
    if card_id and card_id != card.id:
        bad("id", f"{card_id!r} does not match the file name {card.path.name!r}")
    if not ID_RE.match(card.id):
        bad("id", f"{card.id!r} is not a valid id (lower case letters, digits and _)")
    card.topic = fields.text(data, "topic")
    if card.topic and topics and card.topic not in topics:
        bad("topic", f"{card.topic!r} is not a topic in topics.toml (known: {', '.join(topics)})")
    card.kind = fields.choice(data, "kind", tuple(KINDS)) or ""
    card.section = fields.choice(data, "section", SECTIONS, default="interview") or "interview"
    card.question = fields.text(data, "question")
    card.explanation = fields.text(data, "explanation")
    card.code = _dedent_code(fields.text(data, "code", required=card.kind in ("text", "count", "bug")))
    card.seconds = fields.integer(data, "seconds", default=DEFAULT_SECONDS, low=MIN_SECONDS, high=MAX_SECONDS) \
        or DEFAULT_SECONDS
    card.level = fields.choice(data, "level", tuple(LEVELS), default=DEFAULT_LEVEL) or DEFAULT_LEVEL
    if "jax" in data:
        spec = data["jax"]
        try:
            if not isinstance(spec, str):
                raise VersionRangeError(f"expected a string such as '>=0.9.1', got {spec!r}")
            check_range(spec)
        except VersionRangeError as exc:
            bad("jax", f"not a version range: {exc}")
        else:
            card.jax = spec.replace(" ", "")
    if "platform" in data:
        card.platform = fields.choice(data, "platform", tuple(PLATFORMS)) or ""

    kind = card.kind
    if kind in ("choice", "bug"):
        choices = fields.strings(data, "choices", low=2, high=MAX_CHOICES)
        if choices is not None:
            if len({normalize_output(c) for c in choices}) != len(choices):
                bad("choices", "two choices are the same")
            else:
                card.choices = tuple(normalize_output(c) for c in choices)
    elif "choices" in data and kind:
        bad("choices", f"a {kind} card has no choices")

    if "answer" not in data:
        bad("answer", "missing")
    elif kind:
        card.answer = _read_answer(kind, data["answer"], len(card.choices), lambda m: bad("answer", m))

    for lang in TRANSLATED:
        table = fields.table(data, lang, required=False)
        if table is not None:
            choices = fields.strings(table, "choices", lang, required=bool(card.choices), low=len(card.choices),
                                     high=len(card.choices)) if card.choices else []
            comments = table.get("comments", {})
            if not isinstance(comments, dict) or not all(isinstance(k, str) and isinstance(v, str) and v.strip()
                                                         for k, v in comments.items()):
                bad(f"{lang}.comments", f"expected a table of comment = translation strings, got {comments!r}")
                comments = {}
            card.translations[lang] = CardText(
                fields.text(table, "question", lang), tuple(choices or ()), fields.text(table, "explanation", lang),
                {k.strip(): v.strip() for k, v in comments.items()})

    proof = fields.table(data, "proof")
    if proof is None:
        bad("[proof]", "every card needs a proof that runs")
        return
    _read_proof(card, proof, bad)


def _read_answer(kind: str, value: Any, n_choices: int, bad: Callable[[str], None]) -> Any:
    if kind in ("choice", "bug"):
        if isinstance(value, bool) or not isinstance(value, int) or not (n_choices and 1 <= value <= n_choices):
            bad(f"expected the number of the right choice (1 to {n_choices or '?'}), got {value!r}")
            return None
        return value
    if kind == "truefalse":
        if not isinstance(value, bool):
            bad(f"expected true or false, got {value!r}")
            return None
        return value
    if kind == "count":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            bad(f"expected a whole number ≥ 0, got {value!r}")
            return None
        return value
    if not isinstance(value, str) or not value.strip():
        bad(f"expected the exact output as a non-empty string, got {value!r}")
        return None
    return normalize_output(value)


def _read_proof(card: Card, table: dict[str, Any], bad: Callable[[str, str], None]) -> None:
    proof = card.proof
    observe = table.get("observe", "answer" if card.kind in ("truefalse", "bug") else "stdout")
    if observe not in OBSERVES:
        bad("proof.observe", f"expected one of {', '.join(OBSERVES)}, got {observe!r}")
        return
    if card.kind and observe not in KIND_OBSERVES[card.kind]:
        bad("proof.observe", f"a {card.kind} card cannot be proved by {observe!r} "
                             f"(use {' or '.join(sorted(KIND_OBSERVES[card.kind]))})")
        return
    proof.observe = observe
    code = table.get("code")
    if code is not None:
        if not isinstance(code, str) or not code.strip():
            bad("proof.code", f"expected a non-empty string, got {code!r}")
        else:
            proof.code = _dedent_code(code)
    if not proof.code and not card.code:
        bad("proof.code", "missing: the card has no code, so its proof needs its own")
    setup = table.get("setup")
    if setup is not None:
        if not isinstance(setup, str) or not setup.strip():
            bad("proof.setup", f"expected a non-empty string, got {setup!r}")
        else:
            proof.setup = _dedent_code(setup)
    for label, source in (("proof.setup", proof.setup), ("proof.code" if proof.code else "code", proof.code or card.code)):
        if source:
            try:
                compile(source, f"<drill {card.id}>", "exec", dont_inherit=True)
            except SyntaxError as exc:
                bad(label, f"not valid Python: {exc.msg} (line {exc.lineno})")
    if observe in ("traces", "compiles"):
        function = table.get("function")
        if not isinstance(function, str) or not function.strip():
            bad("proof.function", f"observe = {observe!r} needs the name of the jitted function to count")
        else:
            proof.function = function.strip()
    timeout = table.get("timeout_s", PROOF_TIMEOUT_S)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
        bad("proof.timeout_s", f"expected a positive number of seconds, got {timeout!r}")
    else:
        proof.timeout_s = float(timeout)

    proved_on = table.get("proved_on")
    if card.platform and (not isinstance(proved_on, str) or not proved_on.strip()):
        bad("proof.proved_on", f"a card about {PLATFORMS[card.platform]} is not proved on the CPU: say where its proof "
                               f"passed (\"TPU v5e, jax 0.10.2\"), got {proved_on!r}")
    elif proved_on is not None and not card.platform:
        bad("proof.proved_on", "only a card with a platform names where it was proved (the others are proved by "
                               "validate, on the installed JAX)")
    elif card.platform:
        proof.proved_on = proved_on.strip()
    if "expect" in table:
        expect = table["expect"]
        want = {"stdout": str, "lines": int, "traces": int, "compiles": int, "raises": str}.get(observe)
        if want is int and (isinstance(expect, bool) or not isinstance(expect, int) or expect < 0):
            bad("proof.expect", f"observe = {observe!r} expects a whole number ≥ 0, got {expect!r}")
        elif want is str and not isinstance(expect, str):
            bad("proof.expect", f"observe = {observe!r} expects a string, got {expect!r}")
        elif observe == "raises" and not (expect == NO_EXCEPTION or expect.isidentifier()):
            bad("proof.expect", f"expected an exception class name or {NO_EXCEPTION!r}, got {expect!r}")
        elif card.kind == "truefalse" and not isinstance(expect, bool):
            bad("proof.expect", f"a true/false card's proof yields true or false, got {expect!r}")
        elif card.kind == "choice" and observe == "answer" and (not isinstance(expect, str) or not expect.strip()):
            bad("proof.expect", f"a choice card proved by `answer` expects a word or name that only its right choice "
                                f"holds (the proof sets answer to it), got {expect!r}")
        else:
            proof.expect = normalize_output(expect) if observe == "stdout" else expect
    elif card.kind == "choice" and observe != "stdout":
        bad("proof.expect", f"missing: what must the run yield ({OBSERVES[observe]}) for choice {card.answer}?")
    elif card.kind == "text" and observe == "answer":
        bad("proof.expect", "missing")
    if card.kind == "count" and observe in ("lines", "traces", "compiles") and proof.expect is not None \
            and proof.expect != card.answer:
        bad("proof.expect", f"{proof.expect!r} disagrees with answer = {card.answer!r}")
    _check_choice_link(card, bad)


def _check_choice_link(card: Card, bad: Callable[[str, str], None]) -> None:
    """A choice card proved by an exception, a count or a computed answer names that observation in its right
    choice, and in no other one: reordering the choices cannot then keep a stale answer number. (A stdout proof
    is compared with the right choice's text itself.)"""
    proof = card.proof
    if card.kind != "choice" or proof.observe == "stdout" or proof.expect is None:
        return
    if not isinstance(card.answer, int) or not 1 <= card.answer <= len(card.choices):
        return
    token = str(proof.expect) if proof.expect != NO_EXCEPTION else ""
    if not token:
        return
    pattern = re.compile(rf"(?<![\w.]){re.escape(token)}(?![\w])")
    holders = [i for i, choice in enumerate(card.choices, 1) if pattern.search(choice)]
    if card.answer not in holders:
        bad("answer", f"choice {card.answer} does not name what the proof must yield ({token!r}): are the choices "
                      f"in another order?")
    elif len(holders) > 1:
        bad("choices", f"{token!r}, what the proof must yield, appears in choices {holders}: only the right one may "
                       f"name it")


def _dedent_code(code: str) -> str:
    import textwrap

    return textwrap.dedent(code).strip("\n") + "\n" if code else ""
