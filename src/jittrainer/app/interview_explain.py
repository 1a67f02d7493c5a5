"""The mock interview's explain-why question in the app: one answered card, its right answer, a line for the
candidate's own explanation; then the card's explanation and three keys to grade theirs against it (y, p, n).

It dismisses itself with an ``ExplainAnswer`` (its ``grade`` empty when the candidate skipped the comparison or the
part's time ran out), which the interview records; nothing here is scored.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.syntax import Syntax
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from jittrainer.app.keys import translate_bindings
from jittrainer.course.drills.present import Shown
from jittrainer.course.drills.round import Outcome
from jittrainer.course.interview import ExplainAnswer
from jittrainer.i18n import N_, _, flow, language
from jittrainer.units import duration


class ExplainScreen(Screen[ExplainAnswer]):
    DEFAULT_CSS = """
    ExplainScreen #explain-title { height: 1; padding: 0 1; }
    ExplainScreen #explain-body { height: 1fr; padding: 0 1; }
    ExplainScreen #explain-input { margin: 1 0; }
    ExplainScreen #explain-feedback { margin-top: 1; }
    """
    BINDINGS = [
        Binding("y", "grade('yes')", N_("Same mechanism"), id="explain.yes",
                tooltip=N_("Your explanation named the mechanism the card's explanation names")),
        Binding("p", "grade('partly')", N_("Partly"), id="explain.partly",
                tooltip=N_("Your explanation named part of it")),
        Binding("n", "grade('no')", N_("Missed it"), id="explain.no",
                tooltip=N_("Your explanation missed the mechanism")),
        Binding("escape", "skip", N_("Skip"), id="explain.skip",
                tooltip=N_("Go on to the report without grading your explanation")),
    ]

    def __init__(self, outcome: Outcome, seed: int | None, left: Callable[[], float],
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        translate_bindings(self)
        self.outcome = outcome
        self.seed = seed
        self.left = left  # the part's seconds left
        self.clock = clock
        self.answer = ExplainAnswer(outcome.card.id, outcome.card.topic)
        self.started = clock()
        self.compared = False  # the explanation is typed and the card's is showing
        self.closed = False

    def compose(self) -> ComposeResult:
        yield Static("", id="explain-title")
        with VerticalScroll(id="explain-body"):
            yield Static("", id="explain-question")
            yield Static("", id="explain-code")
            yield Static("", id="explain-answer")
            yield Input(placeholder=_("why? a sentence or two, then enter"), id="explain-input")
            yield Static("", id="explain-feedback")
        yield Footer()

    def on_mount(self) -> None:
        card, lang = self.outcome.card, language()
        self.query_one("#explain-question", Static).update(Text.assemble(
            (_("Explain why, as you would to the interviewer. The question was:") + "\n\n", "bold"),
            card.text(lang).question.strip()))
        code = self.query_one("#explain-code", Static)
        code.display = bool(card.code)
        if card.code:
            code.update(Syntax(card.code_in(lang).rstrip(), "python", theme="monokai", word_wrap=True))
        shown = self.outcome.shown or Shown.of(card, self.seed)
        self.query_one("#explain-answer", Static).update(
            Text(_("The answer: {answer}").format(answer=shown.answer_text(lang)), style="bold"))
        self.query_one("#explain-feedback", Static).display = False
        self.query_one("#explain-input", Input).focus()
        self.set_interval(1.0, self.tick)
        self.tick()
        self.refresh_bindings()

    def tick(self) -> None:
        left = self.left()
        self.query_one("#explain-title", Static).update(Text.assemble(
            (" " + _("Interview") + " ", "bold reverse"), " ", _("Explain why"), " · ",
            (_("{time} left").format(time=duration(left)), "bold")))
        if left <= 0:
            self._done("")

    @on(Input.Submitted, "#explain-input")
    def _typed(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text or self.compared:
            return
        self.answer.text = text
        self.compared = True
        box = self.query_one("#explain-input", Input)
        box.disabled = True
        self.set_focus(None)
        feedback = self.query_one("#explain-feedback", Static)
        feedback.update(Text.assemble((_("The card's explanation:") + "\n", "bold"),
                                      flow(self.outcome.card.text(language()).explanation), "\n\n",
                                      (_("Did yours name the same mechanism? y yes · p partly · n no"), "bold")))
        feedback.display = True
        self.query_one("#explain-body", VerticalScroll).scroll_end(animate=False)
        self.refresh_bindings()

    def action_grade(self, grade: str) -> None:
        if self.compared:
            self._done(grade)

    def action_skip(self) -> None:
        self._done("")

    def _done(self, grade: str) -> None:
        if not self.closed:
            self.closed = True
            self.answer.grade = grade
            self.answer.seconds = round(self.clock() - self.started, 1)
            self.dismiss(self.answer)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "grade":
            return self.compared  # y, p and n are letters of the explanation until it is typed
        return True
