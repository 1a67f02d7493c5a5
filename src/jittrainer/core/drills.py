"""Interview drills: short predict-the-output cards whose answers are proved by running them on the installed JAX.

Cards are data, one TOML file each, in ``exercises/drills/cards/`` (topics in ``exercises/drills/topics.toml``). A
malformed card still loads, as an unavailable card whose ``problems`` name the file and the field, so one broken
card never hides the others. Every card carries a proof: a snippet that ``verify_cards`` runs in a fresh grading
worker (``jittrainer.core.proofs``), and whose observation — the printed output, a number of traces or compiles,
the exception raised, or the value of ``answer`` — must equal the card's answer. A JAX upgrade that changes the
behaviour makes validation fail, instead of letting a card teach something that is no longer true.

This module also holds what both faces of a drill round share: answer checking, the round itself (``DrillRound``,
with an injectable clock) and the spaced-repetition schedule (``Scheduler``: Leitner boxes, stored in the progress
file). No jax and no Textual here.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import random
import re
import time
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT_VERSION = 1
ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")

# kind -> what the learner does
KINDS = {
    "choice": "pick one of 2-4 choices",
    "text": "type the exact output",
    "count": "type a number (traces, compiles, lines printed, ...)",
    "truefalse": "decide whether a statement is true",
    "bug": "spot the bug among 2-4 choices",
}
# observe -> what the proof's run yields
OBSERVES = {
    "stdout": "everything the snippet printed (jax.debug.print included)",
    "lines": "the number of non-empty lines the snippet printed",
    "traces": "how many times JAX traced the function named in proof.function",
    "compiles": "how many times XLA compiled the function named in proof.function",
    "raises": "the class name of the exception the snippet raised (exactly that class), or 'none'",
    "answer": "the value the snippet leaves in the variable `answer`",
}
KIND_OBSERVES = {
    "choice": set(OBSERVES),
    "text": {"stdout", "answer"},
    "count": {"stdout", "lines", "traces", "compiles", "answer"},
    "truefalse": {"answer"},
    "bug": {"answer"},
}
SECTIONS = ("interview", "misconception")
DEFAULT_SECONDS = 60
MIN_SECONDS, MAX_SECONDS = 5, 600
MAX_CHOICES = 4
PROOF_TIMEOUT_S = 30.0
NO_EXCEPTION = "none"
TRUE_WORDS = {"t", "true", "y", "yes", "1"}
FALSE_WORDS = {"f", "false", "n", "no", "2"}


class AnswerError(ValueError):
    """The learner's input is not an answer to this card (``"7"`` for a 4-choice card): ask again."""


# ------------------------------------------------------------------------------------------------------- model


@dataclass(frozen=True)
class Topic:
    id: str
    title: str
    exercise: str | None = None  # the exercise that teaches it, if one does


@dataclass
class Proof:
    observe: str = "stdout"
    code: str = ""  # what runs; the card's code unless the proof has its own
    setup: str = ""  # runs first, unobserved: assumptions the question states (e.g. 4 devices)
    function: str = ""  # for traces/compiles: the Python name of the jitted function
    expect: Any = None  # what the run must yield
    timeout_s: float = PROOF_TIMEOUT_S


@dataclass
class Card:
    id: str
    path: Path
    topic: str = ""
    kind: str = ""
    section: str = "interview"
    question: str = ""
    code: str = ""
    choices: tuple[str, ...] = ()
    answer: Any = None
    explanation: str = ""
    seconds: int = DEFAULT_SECONDS
    proof: Proof = field(default_factory=Proof)
    problems: list[str] = field(default_factory=list)  # "file: field: what is wrong"

    @property
    def available(self) -> bool:
        return not self.problems

    @property
    def label(self) -> str:
        """What kind of question this is, in the learner's words."""
        if self.kind == "choice":
            return {"stdout": "predict the output", "lines": "predict the output", "raises": "predict what happens",
                    "traces": "predict the traces", "compiles": "predict the compiles"}.get(self.proof.observe,
                                                                                          "multiple choice")
        if self.kind == "count":
            return {"traces": "count the traces", "compiles": "count the compiles",
                    "lines": "count the printed lines"}.get(self.proof.observe, "give the number")
        return {"text": "type the output", "truefalse": "true or false", "bug": "spot the bug"}.get(self.kind, self.kind)

    @property
    def prompt(self) -> str:
        """How to answer, for the input line."""
        if self.kind in ("choice", "bug"):
            return f"1-{len(self.choices)}"
        if self.kind == "truefalse":
            return "t or f"
        if self.kind == "count":
            return "a number"
        return "the exact output"

    @property
    def proof_code(self) -> str:
        return self.proof.code or self.code

    def answer_text(self) -> str:
        """The right answer, as the learner sees it after answering."""
        if self.kind in ("choice", "bug") and isinstance(self.answer, int) and 1 <= self.answer <= len(self.choices):
            return f"{self.answer}) {self.choices[self.answer - 1]}"
        if self.kind == "truefalse":
            return "True" if self.answer else "False"
        return str(self.answer)

    # -- answers -----------------------------------------------------------------------------------------------

    def parse(self, response: str) -> Any:
        """The learner's input as a value of this card's answer type; ``AnswerError`` says how to answer instead."""
        text = response.strip()
        if not text:
            raise AnswerError(f"answer with {self.prompt}")
        if self.kind in ("choice", "bug"):
            if text.isdigit() and 1 <= int(text) <= len(self.choices):
                return int(text)
            letters = "abcd"[: len(self.choices)]
            if len(text) == 1 and text.lower() in letters:
                return letters.index(text.lower()) + 1
            raise AnswerError(f"answer with a number from 1 to {len(self.choices)}")
        if self.kind == "truefalse":
            word = text.lower()
            if word in TRUE_WORDS:
                return True
            if word in FALSE_WORDS:
                return False
            raise AnswerError("answer t (true) or f (false)")
        if self.kind == "count":
            try:
                return int(text)
            except ValueError:
                raise AnswerError("answer with a whole number, e.g. 2") from None
        return response

    def is_correct(self, value: Any) -> bool:
        if self.kind == "text":
            return normalize_typed(str(value)) == normalize_typed(str(self.answer))
        if self.kind == "truefalse":
            return value is self.answer
        return value == self.answer and not isinstance(value, bool)

    def expected_observation(self) -> Any:
        """What the proof's run must yield for the card's answer to be right."""
        proof = self.proof
        if proof.expect is not None:
            return proof.expect
        if self.kind == "choice" and proof.observe == "stdout":
            return self.choices[self.answer - 1]
        if self.kind == "bug":
            return True
        if self.kind == "count" and proof.observe == "stdout":
            return str(self.answer)
        return self.answer


def normalize_output(text: str) -> str:
    """Printed output compared line by line: trailing spaces and blank lines at either end do not count."""
    lines = [line.rstrip() for line in str(text).replace("\r\n", "\n").split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def normalize_typed(text: str) -> str:
    """A typed answer: runs of spaces or newlines count as one space (NumPy pads columns unpredictably), and
    spaces next to punctuation do not count at all, so "(4,2)" matches "(4, 2)" but "hithere" is not "hi there"."""
    return re.sub(r"\s*([^\w\s])\s*", r"\1", " ".join(str(text).split()))


@dataclass
class Deck:
    root: Path
    cards: list[Card] = field(default_factory=list)
    topics: dict[str, Topic] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # deck-wide: topics.toml, duplicate ids, ...

    @property
    def available(self) -> list[Card]:
        return [c for c in self.cards if c.available]

    def find(self, card_id: str) -> Card:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def topic_title(self, topic_id: str) -> str:
        topic = self.topics.get(topic_id)
        return topic.title if topic else topic_id


# ------------------------------------------------------------------------------------------------------ loader


def default_root() -> Path:
    """``drills/`` beside the exercises ($JITTRAINER_DRILLS overrides it)."""
    env = os.environ.get("JITTRAINER_DRILLS")
    if env:
        return Path(env).expanduser()
    from jittrainer.core.exercises import default_root as exercises_root

    return exercises_root() / "drills"


def load_drills(root: Path | None = None) -> Deck:
    """Topics and every ``cards/*.toml`` under ``root``, sorted by topic order then id; never raises for bad data."""
    root = Path(root) if root is not None else default_root()
    deck = Deck(root=root)
    if not root.is_dir():
        deck.problems.append(f"{root}: no drills folder there")
        return deck
    deck.topics = _load_topics(root, deck.problems)
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


def _load_topics(root: Path, problems: list[str]) -> dict[str, Topic]:
    path = root / "topics.toml"
    name = _name(path, root)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        problems.append(f"{name}: file is missing")
        return {}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        problems.append(f"{name}: not valid TOML: {exc}")
        return {}
    if data.get("format_version") != FORMAT_VERSION:
        problems.append(f"{name}: format_version: this jittrainer reads version {FORMAT_VERSION}, "
                        f"got {data.get('format_version')!r}")
    table = data.get("topics")
    if not isinstance(table, dict) or not table:
        problems.append(f"{name}: [topics]: missing or empty")
        return {}
    exercise_ids = _exercise_ids(root.parent)
    topics = {}
    for topic_id, entry in table.items():
        where = f"{name}: topics.{topic_id}"
        if not ID_RE.match(topic_id):
            problems.append(f"{where}: not a valid id (lower case letters, digits and _)")
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("title"), str) or not entry["title"].strip():
            problems.append(f"{where}.title: expected a non-empty string")
            continue
        exercise = entry.get("exercise")
        if exercise is not None and (not isinstance(exercise, str) or (exercise_ids and exercise not in exercise_ids)):
            problems.append(f"{where}.exercise: {exercise!r} is not an exercise id")
            exercise = None
        topics[topic_id] = Topic(topic_id, entry["title"].strip(), exercise)
    return topics


def _exercise_ids(exercises_root: Path) -> set[str]:
    from jittrainer.core.exercises import FOLDER_RE

    if not exercises_root.is_dir():
        return set()
    return {m["id"] for entry in exercises_root.iterdir() if (m := FOLDER_RE.match(entry.name)) and entry.is_dir()}


def load_card(path: Path, topics: dict[str, Topic], root: Path | None = None) -> Card:
    card = Card(id=path.stem, path=path)
    name = _name(path, root) if root is not None else path.name
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as exc:
        card.problems.append(f"{name}: not valid TOML: {exc}")
        return card
    _read_card(card, data, name, topics)
    return card


def _read_card(card: Card, data: dict[str, Any], name: str, topics: dict[str, Topic]) -> None:
    problems = card.problems

    def bad(label: str, message: str) -> None:
        problems.append(f"{name}: {label}: {message}")

    def text(table: dict, key: str, label: str, *, required: bool = True) -> str:
        if key not in table:
            if required:
                bad(label, "missing")
            return ""
        value = table[key]
        if not isinstance(value, str) or not value.strip():
            bad(label, f"expected a non-empty string, got {value!r}")
            return ""
        return value

    version = data.get("format_version")
    if "format_version" not in data:
        bad("format_version", "missing")
    elif version != FORMAT_VERSION or isinstance(version, bool):
        bad("format_version", f"this jittrainer reads version {FORMAT_VERSION}, got {version!r}")
    card_id = text(data, "id", "id")
    if card_id and card_id != card.id:
        bad("id", f"{card_id!r} does not match the file name {card.path.name!r}")
    if not ID_RE.match(card.id):
        bad("id", f"{card.id!r} is not a valid id (lower case letters, digits and _)")
    card.topic = text(data, "topic", "topic")
    if card.topic and topics and card.topic not in topics:
        bad("topic", f"{card.topic!r} is not a topic in topics.toml (known: {', '.join(topics)})")
    card.kind = text(data, "kind", "kind")
    if card.kind and card.kind not in KINDS:
        bad("kind", f"expected one of {', '.join(KINDS)}, got {card.kind!r}")
        card.kind = ""
    section = data.get("section", "interview")
    if section not in SECTIONS:
        bad("section", f"expected one of {', '.join(SECTIONS)}, got {section!r}")
    else:
        card.section = section
    card.question = text(data, "question", "question")
    card.explanation = text(data, "explanation", "explanation")
    card.code = _dedent_code(text(data, "code", "code", required=card.kind in ("text", "count", "bug")))
    seconds = data.get("seconds", DEFAULT_SECONDS)
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not MIN_SECONDS <= seconds <= MAX_SECONDS:
        bad("seconds", f"expected a whole number of seconds from {MIN_SECONDS} to {MAX_SECONDS}, got {seconds!r}")
    else:
        card.seconds = seconds

    kind = card.kind
    choices = data.get("choices")
    if kind in ("choice", "bug"):
        if (not isinstance(choices, list) or not 2 <= len(choices) <= MAX_CHOICES
                or not all(isinstance(c, str) and c.strip() for c in choices)):
            bad("choices", f"expected 2 to {MAX_CHOICES} non-empty strings, got {choices!r}")
        elif len({normalize_output(c) for c in choices}) != len(choices):
            bad("choices", "two choices are the same")
        else:
            card.choices = tuple(normalize_output(c) for c in choices)
    elif choices is not None and kind:
        bad("choices", f"a {kind} card has no choices")

    if "answer" not in data:
        bad("answer", "missing")
    elif kind:
        card.answer = _read_answer(kind, data["answer"], len(card.choices), lambda m: bad("answer", m))

    proof = data.get("proof")
    if not isinstance(proof, dict):
        bad("[proof]", "missing table: every card needs a proof that runs")
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
        else:
            proof.expect = normalize_output(expect) if observe == "stdout" else expect
    elif card.kind == "choice" and observe != "stdout":
        bad("proof.expect", f"missing: what must the run yield ({OBSERVES[observe]}) for choice {card.answer}?")
    elif card.kind == "text" and observe == "answer":
        bad("proof.expect", "missing")
    if card.kind == "count" and observe in ("lines", "traces", "compiles") and proof.expect is not None \
            and proof.expect != card.answer:
        bad("proof.expect", f"{proof.expect!r} disagrees with answer = {card.answer!r}")


def _dedent_code(code: str) -> str:
    import textwrap

    return textwrap.dedent(code).strip("\n") + "\n" if code else ""


# ------------------------------------------------------------------------------------------------------ proofs


@dataclass
class ProofResult:
    card: str
    file: str
    ok: bool
    problem: str = ""
    observed: Any = None
    seconds: float = 0.0
    jax_version: str = ""


def observe(card: Card, run: dict[str, Any]) -> tuple[Any, str]:
    """What a proof run yielded for the card's ``proof.observe``, or (None, why) when it yielded nothing usable."""
    kind = card.proof.observe
    raised = run.get("raised")
    if kind == "raises":
        if raised is None:
            return NO_EXCEPTION, ""
        return raised, ""
    if raised is not None:
        return None, f"the proof raised {raised['type']}: {raised.get('message', '')}".rstrip(": ")
    if kind == "stdout":
        return normalize_output(run.get("stdout", "")), ""
    if kind == "lines":
        return sum(1 for line in str(run.get("stdout", "")).splitlines() if line.strip()), ""
    if kind in ("traces", "compiles"):
        counts = run.get(kind) or {}
        name = card.proof.function
        names = {name} if kind == "traces" else {name, f"jit({name})"}
        return sum(int(n) for fun, n in counts.items() if fun in names), ""
    if "answer" not in run:
        return None, "the proof never set the variable `answer`"
    return run["answer"], ""


def matches(card: Card, observed: Any) -> bool:
    expected = card.expected_observation()
    kind = card.proof.observe
    if kind == "raises":
        if expected == NO_EXCEPTION:
            return observed == NO_EXCEPTION
        return isinstance(observed, dict) and observed.get("type") == expected
    if kind == "stdout":
        return normalize_output(observed) == normalize_output(expected)
    if isinstance(expected, bool) or isinstance(observed, bool):
        return type(expected) is type(observed) and expected == observed
    return observed == expected


def describe_observation(card: Card, observed: Any) -> str:
    kind = card.proof.observe
    if kind == "raises":
        if observed == NO_EXCEPTION:
            return "no exception"
        return f"{observed['type']}: {observed.get('message', '')}".rstrip(": ")
    if kind in ("traces", "compiles"):
        return f"{observed} {kind[:-1] if observed == 1 else kind} of {card.proof.function}"
    if kind == "lines":
        return f"{observed} printed line{'s' if observed != 1 else ''}"
    if kind == "stdout":
        return repr(observed)
    return f"answer = {observed!r}"


def judge_proof(card: Card, run: dict[str, Any], name: str = "") -> ProofResult:
    """Compare one proof run (the worker's result dict) with the card's answer."""
    name = name or card.path.name
    version = str(run.get("jax_version", ""))
    seconds = round(float(run.get("task_s", 0.0) or 0.0) + float(run.get("start_s", 0.0) or 0.0), 3)
    if not run.get("ok"):
        error = str(run.get("error", "unknown error")).strip().splitlines()
        return ProofResult(card.id, name, False, f"{name}: the proof did not run: {error[-1] if error else '?'}",
                           seconds=seconds, jax_version=version)
    if run.get("setup_raised"):
        raised = run["setup_raised"]
        return ProofResult(card.id, name, False, f"{name}: the proof's setup failed, so the question's premise does "
                           f"not hold here: {raised['type']}: {raised.get('message', '')}".rstrip(": "),
                           seconds=seconds, jax_version=version)
    observed, why = observe(card, run)
    on = f"jax {version}" if version else "the installed jax"
    if why:
        return ProofResult(card.id, name, False, f"{name}: {why} (on {on})", seconds=seconds, jax_version=version)
    if matches(card, observed):
        return ProofResult(card.id, name, True, observed=observed, seconds=seconds, jax_version=version)
    expected = card.expected_observation()
    want = describe_observation(card, expected if card.proof.observe != "raises" or expected == NO_EXCEPTION
                                else {"type": expected})
    stated = f"choice {card.answer}" if card.kind in ("choice", "bug") else repr(card.answer_text())
    problem = (f"{name}: the card's answer ({stated}) needs {want}, "
               f"but running its proof on {on} gave {describe_observation(card, observed)}")
    return ProofResult(card.id, name, False, problem, observed=observed, seconds=seconds, jax_version=version)


def proof_payload(card: Card) -> dict[str, Any]:
    return {"card": card.id, "code": card.proof_code, "setup": card.proof.setup}


def default_jobs() -> int:
    """Proof workers in parallel: twice the CPUs, since a worker spends much of its start-up waiting, not
    computing (measured: ~0.65 s of CPU in ~1.5 s of wall time to import jax)."""
    return max(2, min(2 * (os.cpu_count() or 1), 16))


def prove_cards(
    cards: Sequence[Card],
    *,
    jobs: int | None = None,
    on_result: Callable[[str, bool], None] | None = None,
    run_task: Callable[..., dict[str, Any]] | None = None,
    root: Path | None = None,
) -> list[ProofResult]:
    """Run every available card's proof, each in its own fresh worker (no JAX cache is shared between cards),
    ``jobs`` at a time (default: ``default_jobs()``). Unavailable cards are reported without running.
    ``on_result(line, ok)`` is called once per card, from the pool's threads."""
    if run_task is None:
        from jittrainer.core.runner import run_task
    results: list[ProofResult] = []

    def label(card: Card) -> str:
        base = root if root is not None else card.path.parent.parent
        return _name(card.path, base)

    def prove(card: Card) -> ProofResult:
        run = run_task("proof", proof_payload(card), card.proof.timeout_s)
        result = judge_proof(card, run, label(card))
        if on_result:
            on_result(result.problem or f"{result.file}: proved ({describe_observation(card, result.observed)})",
                      result.ok)
        return result

    runnable = []
    for card in cards:
        if card.problems:
            result = ProofResult(card.id, label(card), False, "; ".join(card.problems))
            results.append(result)
            if on_result:
                on_result(card.problems[0], False)
        else:
            runnable.append(card)
    with ThreadPoolExecutor(max_workers=max(1, jobs or default_jobs())) as pool:
        results.extend(pool.map(prove, runnable))
    return results


def verify_cards(
    cards: Sequence[Card] | Deck | None = None,
    jobs: int | None = None,
    on_result: Callable[[str, bool], None] | None = None,
) -> list[str]:
    """What ``jittrainer validate`` calls: every card loads cleanly and its proof, run on the installed JAX,
    yields the card's answer. Returns the problems, one line each (empty: all good). ``cards`` defaults to the
    bundled deck; passing a ``Deck`` also reports deck-wide problems (topics.toml, no cards, ...)."""
    problems: list[str] = []
    if cards is None:
        cards = load_drills()
    if isinstance(cards, Deck):
        problems.extend(cards.problems)
        for problem in cards.problems:
            if on_result:
                on_result(problem, False)
        cards = cards.cards
    for result in prove_cards(list(cards), jobs=jobs, on_result=on_result):
        if not result.ok:
            problems.append(result.problem)
    return problems


# --------------------------------------------------------------------------------------------------- schedule

# Leitner boxes: a right answer moves a card up one box, a miss (or a time-out) sends it back to box 1, due again
# today. The interval of a box is how many days pass before the card is due again.
BOX_INTERVAL_DAYS = {1: 1, 2: 3, 3: 7, 4: 14, 5: 30}
TOP_BOX = max(BOX_INTERVAL_DAYS)
RESULTS = ("right", "wrong", "timeout")
STATE_VERSION = 1


def _now() -> dt.datetime:
    return dt.datetime.now().astimezone()


@dataclass
class CardState:
    box: int = 0  # 0: never drilled
    due: str | None = None  # ISO date; None: new, due now
    seen: int = 0
    right: int = 0
    wrong: int = 0
    last_result: str | None = None
    last_seen: str | None = None

    @property
    def is_new(self) -> bool:
        return self.seen == 0

    def due_date(self) -> dt.date | None:
        try:
            return dt.date.fromisoformat(self.due) if self.due else None
        except ValueError:
            return None

    def is_due(self, today: dt.date) -> bool:
        due = self.due_date()
        return due is None or due <= today

    @classmethod
    def from_dict(cls, raw: Any) -> CardState:
        """Tolerant: anything malformed in the file counts as a new card rather than breaking the round."""
        if not isinstance(raw, dict):
            return cls()
        state = cls()
        for f in dataclasses.fields(cls):
            value = raw.get(f.name)
            if f.name in ("box", "seen", "right", "wrong"):
                if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                    setattr(state, f.name, value)
            elif isinstance(value, str):
                setattr(state, f.name, value)
        state.box = min(state.box, TOP_BOX)
        return state

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class Scheduler:
    """Leitner spaced repetition over the progress file's ``"drills"`` entry:
    ``{"version": 1, "cards": {card_id: CardState}}``, read and written with ``ProgressStore.update()`` (locked,
    atomic). ``clock`` returns the current (aware or naive) datetime; tests inject a fake one."""

    def __init__(self, store: Any = None, clock: Callable[[], dt.datetime] = _now) -> None:
        if store is None:
            from jittrainer.core.store import ProgressStore

            store = ProgressStore()
        self.store = store
        self.clock = clock

    def today(self) -> dt.date:
        return self.clock().date()

    @staticmethod
    def _cards(data: dict[str, Any]) -> dict[str, Any]:
        drills = data.setdefault("drills", {})
        if not isinstance(drills, dict):
            drills = data["drills"] = {}
        drills.setdefault("version", STATE_VERSION)
        cards = drills.get("cards")
        if not isinstance(cards, dict):
            cards = drills["cards"] = {}
        return cards

    def states(self) -> dict[str, CardState]:
        data = self.store.load()
        drills = data.get("drills")
        cards = drills.get("cards") if isinstance(drills, dict) else None
        if not isinstance(cards, dict):
            return {}
        return {str(k): CardState.from_dict(v) for k, v in cards.items()}

    def state(self, card_id: str) -> CardState:
        return self.states().get(card_id, CardState())

    def record(self, card_id: str, result: str) -> CardState:
        """One answer: right moves the card up a box, wrong or timeout back to box 1 (due today). Persisted now."""
        if result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, got {result!r}")
        now = self.clock()
        today = now.date()
        with self.store.update() as data:
            cards = self._cards(data)
            state = CardState.from_dict(cards.get(card_id))
            state.seen += 1
            state.last_result = result
            state.last_seen = now.isoformat(timespec="seconds")
            if result == "right":
                state.right += 1
                state.box = min(max(state.box, 0) + 1, TOP_BOX)
                state.due = (today + dt.timedelta(days=BOX_INTERVAL_DAYS[state.box])).isoformat()
            else:
                state.wrong += 1
                state.box = 1
                state.due = today.isoformat()
            cards[card_id] = state.to_dict()
        return state

    def due_cards(self, cards: Iterable[Card], states: dict[str, CardState] | None = None) -> list[Card]:
        states = self.states() if states is None else states
        today = self.today()
        return [c for c in cards if states.get(c.id, CardState()).is_due(today)]

    def pick(
        self,
        cards: Sequence[Card],
        *,
        count: int | None = None,
        topic: str | None = None,
        due_only: bool = False,
        seed: int | None = None,
    ) -> list[Card]:
        """The cards of one round: due reviews first (missed ones first), then new cards, then — unless
        ``due_only`` — cards not yet due, soonest first. Ties are shuffled (``seed`` makes it repeatable)."""
        rng = random.Random(seed)
        states = self.states()
        today = self.today()
        pool = [c for c in cards if c.available and (topic is None or c.topic == topic)]
        rng.shuffle(pool)
        due, new, later = [], [], []
        for card in pool:
            state = states.get(card.id, CardState())
            if state.is_new:
                new.append(card)
            elif state.is_due(today):
                due.append((state.box, state.due_date() or today, card))
            else:
                later.append((state.due_date() or today, state.box, card))
        due.sort(key=lambda t: (t[0], t[1]))
        later.sort(key=lambda t: (t[0], t[1]))
        ordered = [c for *_, c in due] + new
        if not due_only:
            ordered += [c for *_, c in later]
        return ordered[:count] if count is not None else ordered

    def summary_counts(self, cards: Sequence[Card]) -> dict[str, int]:
        """How many of ``cards`` are new, due today (seen before) and scheduled later."""
        states = self.states()
        today = self.today()
        out = {"new": 0, "due": 0, "later": 0}
        for card in cards:
            state = states.get(card.id, CardState())
            out["new" if state.is_new else "due" if state.is_due(today) else "later"] += 1
        return out


# ------------------------------------------------------------------------------------------------------- round


DEFAULT_COUNT = 10


@dataclass
class RoundOptions:
    """What ``jittrainer drill`` was asked for; the app's drill screen takes the same."""

    topic: str | None = None
    count: int = DEFAULT_COUNT
    minutes: float | None = None  # the whole round's budget; None: only the per-card countdowns
    due_only: bool = False
    seed: int | None = None

    @property
    def budget_s(self) -> float | None:
        return None if self.minutes is None else self.minutes * 60.0


def plan_round(deck: Deck, options: RoundOptions, scheduler: Scheduler) -> list[Card]:
    """The cards of one round, in order (see ``Scheduler.pick``)."""
    if options.topic is not None and options.topic not in deck.topics:
        raise KeyError(f"no topic called {options.topic!r} (known: {', '.join(deck.topics) or 'none'})")
    return scheduler.pick(deck.cards, count=options.count, topic=options.topic, due_only=options.due_only,
                          seed=options.seed)


@dataclass
class Outcome:
    card: Card
    result: str  # right | wrong | timeout
    response: str = ""
    seconds: float = 0.0
    state: CardState | None = None  # the card's schedule after this answer

    @property
    def correct(self) -> bool:
        return self.result == "right"


@dataclass
class Summary:
    asked: int
    right: int
    wrong: int
    timeouts: int
    skipped: int  # cards of the round never reached (quit early, out of time)
    seconds: float
    weak_topics: list[tuple[str, int, int]]  # (topic, missed, asked), most missed first
    ended_by: str  # "done" | "quit" | "budget"

    @property
    def score_text(self) -> str:
        return f"{self.right}/{self.asked}" if self.asked else "0/0"


class DrillRound:
    """One round: the cards in order, a countdown per card, the round's time budget, and the outcomes.

    The faces (plain text, the Textual screen) drive it: ``start()`` the current card, then ``answer(text)`` or
    ``time_out()``, then ``next()``. ``clock`` is a monotonic seconds source (injectable for tests); the
    scheduler (optional) records every outcome as it happens, so quitting mid-round loses nothing."""

    def __init__(
        self,
        cards: Sequence[Card],
        *,
        scheduler: Scheduler | None = None,
        budget_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.cards = list(cards)
        self.scheduler = scheduler
        self.budget_s = budget_s
        self.clock = clock
        self.index = 0
        self.outcomes: list[Outcome] = []
        self.started_at: float | None = None
        self.card_started_at: float | None = None
        self.deadline: float | None = None
        self.ended_by: str | None = None
        self.finished_at: float | None = None

    # -- state -------------------------------------------------------------------------------------------------

    @property
    def current(self) -> Card | None:
        if self.ended_by is not None or self.index >= len(self.cards):
            return None
        return self.cards[self.index]

    @property
    def answered(self) -> bool:
        """The current card has an outcome (feedback is showing)."""
        return len(self.outcomes) > self.index

    @property
    def finished(self) -> bool:
        return self.ended_by is not None

    @property
    def position(self) -> tuple[int, int]:
        return min(self.index + 1, len(self.cards)), len(self.cards)

    def budget_left(self, now: float | None = None) -> float | None:
        if self.budget_s is None:
            return None
        now = self.clock() if now is None else now
        spent = 0.0 if self.started_at is None else now - self.started_at
        return max(0.0, self.budget_s - spent)

    def seconds_for(self, card: Card, now: float | None = None) -> float:
        """The card's own countdown, cut short when the round's budget has less left."""
        left = self.budget_left(now)
        return float(card.seconds) if left is None else min(float(card.seconds), left)

    def seconds_left(self, now: float | None = None) -> float:
        if self.deadline is None:
            return 0.0
        now = self.clock() if now is None else now
        return max(0.0, self.deadline - now)

    def expired(self, now: float | None = None) -> bool:
        return self.deadline is not None and not self.answered and self.seconds_left(now) <= 0

    # -- flow --------------------------------------------------------------------------------------------------

    def start(self) -> Card | None:
        """Start the current card's countdown (the round's clock starts with the first card)."""
        card = self.current
        if card is None:
            self._finish("done")
            return None
        now = self.clock()
        if self.started_at is None:
            self.started_at = now
        if self.budget_s is not None and self.budget_left(now) <= 0:
            self._finish("budget")
            return None
        self.card_started_at = now
        self.deadline = now + self.seconds_for(card, now)
        return card

    def answer(self, response: str) -> Outcome:
        """Grade the learner's input for the current card. Raises ``AnswerError`` for input that is not an
        answer (nothing is recorded then); an answer after the deadline counts as a time-out."""
        card = self._need_open()
        now = self.clock()
        if self.deadline is not None and now > self.deadline:
            return self._close(card, "timeout", response, now)
        value = card.parse(response)
        return self._close(card, "right" if card.is_correct(value) else "wrong", response, now)

    def answer_dont_know(self) -> Outcome:
        """The learner gave up on the card: a miss (or a time-out, if the time was already up)."""
        card = self._need_open()
        now = self.clock()
        late = self.deadline is not None and now > self.deadline
        return self._close(card, "timeout" if late else "wrong", "?", now)

    def time_out(self) -> Outcome:
        card = self._need_open()
        return self._close(card, "timeout", "", self.clock())

    def next(self) -> Card | None:
        """Move past the answered card and start the next one; None when the round is over."""
        if self.current is not None and not self.answered:
            raise RuntimeError("answer the current card first")
        if self.finished:
            return None
        self.index += 1
        self.deadline = None
        if self.budget_s is not None and self.budget_left() <= 0 and self.index < len(self.cards):
            self._finish("budget")
            return None
        return self.start()

    def quit(self) -> None:
        if not self.finished:
            self._finish("quit")

    def _need_open(self) -> Card:
        card = self.current
        if card is None:
            raise RuntimeError("the round is over")
        if self.answered:
            raise RuntimeError("this card is already answered")
        if self.deadline is None:
            self.start()
        return card

    def _close(self, card: Card, result: str, response: str, now: float) -> Outcome:
        started = self.card_started_at if self.card_started_at is not None else now
        outcome = Outcome(card, result, response, round(now - started, 3))
        if self.scheduler is not None:
            outcome.state = self.scheduler.record(card.id, result)
        self.outcomes.append(outcome)
        return outcome

    def _finish(self, how: str) -> None:
        self.ended_by = how
        self.finished_at = self.clock()

    # -- summary -----------------------------------------------------------------------------------------------

    def summary(self) -> Summary:
        outcomes = self.outcomes
        asked = Counter(o.card.topic for o in outcomes)
        missed = Counter(o.card.topic for o in outcomes if not o.correct)
        weak = sorted(((t, missed[t], asked[t]) for t in missed), key=lambda t: (-t[1] / t[2], -t[1], t[0]))
        end = self.finished_at if self.finished_at is not None else self.clock()
        seconds = 0.0 if self.started_at is None else max(0.0, end - self.started_at)
        return Summary(
            asked=len(outcomes),
            right=sum(o.result == "right" for o in outcomes),
            wrong=sum(o.result == "wrong" for o in outcomes),
            timeouts=sum(o.result == "timeout" for o in outcomes),
            skipped=max(0, len(self.cards) - len(outcomes)),
            seconds=round(seconds, 1),
            weak_topics=weak,
            ended_by=self.ended_by or "quit",
        )


def outcome_headline(outcome: Outcome) -> str:
    card = outcome.card
    if outcome.result == "right":
        return f"✓ Right ({format_duration(outcome.seconds)})."
    if outcome.result == "timeout":
        return f"⏱ Time's up: the answer is {card.answer_text()}"
    return f"✗ Wrong: the answer is {card.answer_text()}"


def summary_lines(summary: Summary, deck: Deck, scheduler: Scheduler | None, cards: Sequence[Card]) -> list[str]:
    """The round summary in words: score and time, weak topics (with the exercises that teach them), schedule."""
    how = {"budget": " (the round's time ran out)", "quit": " (ended early)"}.get(summary.ended_by, "")
    parts = [f"Score {summary.score_text} in {format_duration(summary.seconds)}{how}"]
    if summary.wrong or summary.timeouts:
        parts.append(f"{summary.wrong} wrong, {summary.timeouts} timed out")
    if summary.skipped:
        parts.append(f"{summary.skipped} not reached")
    lines = [" · ".join(parts)]
    if summary.weak_topics:
        weak = ", ".join(f"{deck.topic_title(t)} ({missed} of {asked} missed)" for t, missed, asked in summary.weak_topics)
        lines.append(f"Weak topics: {weak}")
        exercises = [deck.topics[t].exercise for t, *_ in summary.weak_topics
                     if t in deck.topics and deck.topics[t].exercise]
        if exercises:
            lines.append("Practise: " + ", ".join(f"jittrainer show {e}" for e in dict.fromkeys(exercises)))
    elif summary.asked:
        lines.append("No weak topics this round.")
    if scheduler is not None and summary.asked:
        counts = scheduler.summary_counts(cards)
        lines.append(f"Schedule: {counts['due']} of these cards due again today, {counts['later']} later"
                     + (" · next: jittrainer drill --due" if counts["due"] else ""))
    return lines


def format_duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, rest = divmod(seconds, 60)
    return f"{minutes} min {rest} s" if rest else f"{minutes} min"


# ------------------------------------------------------------------------------------------------ the article


def render_sections(deck: Deck) -> str:
    """The seed article's two empty sections, filled from the proved cards: 常见误区 (common misconceptions)
    and 面试题 (interview questions), as Markdown."""
    out = ["<!-- generated by `jittrainer drill --markdown` from exercises/drills/cards; do not edit -->", ""]
    for section, heading in (("misconception", "## 常见误区 — Common misconceptions"),
                             ("interview", "## 面试题 — Interview questions")):
        out += [heading, ""]
        cards = [c for c in deck.available if c.section == section]
        for n, card in enumerate(cards, 1):
            lead = "True or false: " if card.kind == "truefalse" else ""
            out.append(f"**{n}. {lead}{_md(card.question.strip())}** ({deck.topic_title(card.topic)}; {card.label})")
            out.append("")
            if card.code:
                out += ["```python", card.code.rstrip(), "```", ""]
            for i, choice in enumerate(card.choices, 1):
                out.append(f"{i}. {_md(choice)}")
            if card.choices:
                out.append("")
            out.append(f"*Answer:* {_md(card.answer_text())}")
            out.append("")
            out.append(_md(" ".join(card.explanation.split())))
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def _md(text: str) -> str:
    """Plain text for a Markdown paragraph: characters Markdown would read as markup are escaped."""
    text = " / ".join(line.strip() for line in text.splitlines() if line.strip())
    return re.sub(r"([\\`*_\[\]<>#|~])", r"\\\1", text)
