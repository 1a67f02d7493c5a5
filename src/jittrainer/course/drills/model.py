"""Interview drill cards, as data: what a card holds and how a learner's answer to it is read and judged.

Cards are TOML files in ``exercises/drills/cards/`` (loaded by ``loader``), each with a runnable proof that
``jittrainer validate`` checks on the installed JAX (``proofs``). No jax and no Textual here.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jittrainer.course.topics import Topic
from jittrainer.i18n import N_, _, language

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
# level -> who answers it: the basic jit model / specific semantics / internals and less-known behaviour
LEVELS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}
DEFAULT_LEVEL = "medium"
DEFAULT_SECONDS = 60
MIN_SECONDS, MAX_SECONDS = 5, 600
MAX_CHOICES = 4
PROOF_TIMEOUT_S = 30.0
NO_EXCEPTION = "none"
# platform -> why a card about it is not proved by ``validate``, whose workers run on simulated CPU devices; such a
# card names where it was proved (``proof.proved_on``) and ``onplatform`` re-proves it on that machine
PLATFORMS = {"tpu": "a TPU", "gpu": "a GPU"}
# No digits: a "2" for a true/false card is the wrong kind of answer, asked again, not "false".
TRUE_WORDS = {"t", "true", "y", "yes", "对", "是", "真"}
FALSE_WORDS = {"f", "false", "n", "no", "错", "否", "假"}
LINE_COMMENT = re.compile(r"^line (\d+)$")  # "# line 2": what a spot-the-bug card's choices refer to
LINE_WORDS = {"zh": "第 {n} 行"}  # "# line 2" in the other editions (the choices say 第 2 行)


class AnswerError(ValueError):
    """The learner's input is not an answer to this card (``"7"`` for a 4-choice card): ask again."""


@dataclass
class Proof:
    observe: str = "stdout"
    code: str = ""  # what runs; the card's code unless the proof has its own
    setup: str = ""  # runs first, unobserved: assumptions the question states (e.g. 4 devices)
    function: str = ""  # for traces/compiles: the Python name of the jitted function
    expect: Any = None  # what the run must yield
    timeout_s: float = PROOF_TIMEOUT_S
    proved_on: str = ""  # a card with a platform: the machine and JAX its proof last passed on ("TPU v5e, jax 0.10.2")


@dataclass(frozen=True)
class CardText:
    """What a learner reads on a card, in one language (code and answers are the same in every language)."""

    question: str = ""
    choices: tuple[str, ...] = ()
    explanation: str = ""
    comments: dict[str, str] = field(default_factory=dict)  # the code's comments in this language: {"warm-up": "预热"}


def code_comments(code: str) -> list[str]:
    """The comments of ``code``, without their ``#`` (tokenized, so a ``#`` inside a string is not one)."""
    try:
        return [tok.string[1:].strip() for tok in tokenize.generate_tokens(io.StringIO(code).readline)
                if tok.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []


def translate_comments(code: str, comments: dict[str, str], line_word: str) -> str:
    """``code`` with each comment in another language: ``# line 2`` by ``line_word`` ("第 {n} 行"), the others by
    ``comments``; a comment with no translation stays as it is (``validate`` reports it)."""
    try:
        tokens = [tok for tok in tokenize.generate_tokens(io.StringIO(code).readline) if tok.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return code
    lines = code.splitlines(keepends=True)
    for tok in reversed(tokens):
        body = tok.string[1:].strip()
        numbered = LINE_COMMENT.match(body)
        new = line_word.format(n=numbered.group(1)) if numbered else comments.get(body)
        if new is None:
            continue
        row, col = tok.start[0] - 1, tok.start[1]
        line = lines[row]
        lines[row] = line[:col] + "# " + new + line[tok.end[1]:]
    return "".join(lines)


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
    level: str = DEFAULT_LEVEL
    jax: str = ""  # the JAX releases the answer holds for, e.g. ">=0.9.1" (empty: all)
    platform: str = ""  # the accelerator the answer is about ("tpu"; empty: any, proved on CPU devices)
    proof: Proof = field(default_factory=Proof)
    translations: dict[str, CardText] = field(default_factory=dict)  # {"zh": CardText(...)}
    problems: list[str] = field(default_factory=list)  # "file: field: what is wrong"

    def text(self, lang: str = "en") -> CardText:
        """The card's words in ``lang``, English where it has none."""
        english = CardText(self.question, self.choices, self.explanation)
        translated = self.translations.get(lang)
        if translated is None:
            return english
        return CardText(translated.question or self.question,
                        translated.choices if len(translated.choices) == len(self.choices) else self.choices,
                        translated.explanation or self.explanation, translated.comments)

    def code_in(self, lang: str | None = None) -> str:
        """The snippet as shown in ``lang``: the same code, with the comments in that language."""
        lang = lang or language()
        if lang == "en" or not self.code:
            return self.code
        return translate_comments(self.code, self.text(lang).comments, LINE_WORDS.get(lang, "line {n}"))

    def applies(self, jax_version: str | None = None) -> bool:
        """Does the answer hold on this JAX (default: the installed one)?"""
        from jittrainer.course.versions import in_range, installed_jax

        version = installed_jax() if jax_version is None else jax_version
        return not self.jax or not version or in_range(version, self.jax)

    @property
    def level_label(self) -> str:
        return _(LEVELS.get(self.level, self.level))

    @property
    def available(self) -> bool:
        return not self.problems

    @property
    def label(self) -> str:
        """What kind of question this is, in the learner's words."""
        if self.kind == "choice":
            words = {"stdout": N_("predict the output"), "lines": N_("predict the output"),
                     "raises": N_("predict what happens"), "traces": N_("predict the traces"),
                     "compiles": N_("predict the compiles")}
            label = words.get(self.proof.observe, N_("multiple choice"))
            return _(label)
        if self.kind == "count":
            words = {"traces": N_("count the traces"), "compiles": N_("count the compiles"),
                     "lines": N_("count the printed lines")}
            label = words.get(self.proof.observe, N_("give the number"))
            return _(label)
        words = {"text": N_("type the output"), "truefalse": N_("true or false"), "bug": N_("spot the bug")}
        return _(words[self.kind]) if self.kind in words else self.kind

    @property
    def prompt(self) -> str:
        """How to answer, for the input line."""
        if self.kind in ("choice", "bug"):
            return f"1-{len(self.choices)}"
        if self.kind == "truefalse":
            return _("t or f")
        if self.kind == "count":
            return _("a number")
        return _("the exact output")

    @property
    def proof_code(self) -> str:
        return self.proof.code or self.code

    def proof_code_in(self, lang: str | None = None) -> str:
        """The proof as shown in ``lang`` (the app shows it on p): its comments translated like the snippet's."""
        lang = lang or language()
        if lang == "en" or not self.proof_code:
            return self.proof_code
        return translate_comments(self.proof_code, self.text(lang).comments, LINE_WORDS.get(lang, "line {n}"))

    def answer_text(self, lang: str | None = None) -> str:
        """The right answer, as the learner sees it after answering (choices in ``lang``)."""
        if self.kind in ("choice", "bug") and isinstance(self.answer, int) and 1 <= self.answer <= len(self.choices):
            choices = self.text(lang or language()).choices
            return f"{self.answer}) {choices[self.answer - 1]}"
        if self.kind == "truefalse":
            return _("True") if self.answer else _("False")
        return str(self.answer)

    # -- answers -----------------------------------------------------------------------------------------------

    def parse(self, response: str) -> Any:
        """The learner's input as a value of this card's answer type; ``AnswerError`` says how to answer instead."""
        text = response.strip()
        if not text:
            raise AnswerError(_("answer with {how}").format(how=self.prompt))
        if self.kind in ("choice", "bug"):
            if text.isdigit() and 1 <= int(text) <= len(self.choices):
                return int(text)
            letters = "abcd"[: len(self.choices)]
            if len(text) == 1 and text.lower() in letters:
                return letters.index(text.lower()) + 1
            if text.lower() in TRUE_WORDS | FALSE_WORDS:
                raise AnswerError(_("this card is not true or false: answer with a choice's number, 1 to {n}")
                                  .format(n=len(self.choices)))
            raise AnswerError(_("answer with a number from 1 to {n}").format(n=len(self.choices)))
        if self.kind == "truefalse":
            word = text.lower()
            if word in TRUE_WORDS:
                return True
            if word in FALSE_WORDS:
                return False
            if word.isdigit():
                raise AnswerError(_("this card has no numbered choices: answer t (true) or f (false)"))
            raise AnswerError(_("answer t (true) or f (false)"))
        if self.kind == "count":
            try:
                return int(text)
            except ValueError:
                if text.lower() in TRUE_WORDS | FALSE_WORDS:
                    raise AnswerError(_("this card is not true or false: answer with a whole number")) from None
                raise AnswerError(_("answer with a whole number, e.g. 2")) from None
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
    practice: dict[str, list[str]] = field(default_factory=dict)  # topic id -> the exercises that teach it
    problems: list[str] = field(default_factory=list)  # deck-wide: topics.toml, duplicate ids, ...

    @property
    def available(self) -> list[Card]:
        return [c for c in self.cards if c.available]

    def find(self, card_id: str) -> Card:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def topic_title(self, topic_id: str, lang: str | None = None) -> str:
        from jittrainer.i18n import language

        topic = self.topics.get(topic_id)
        return topic.title_in(lang or language()) if topic else topic_id
