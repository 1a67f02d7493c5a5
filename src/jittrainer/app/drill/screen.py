"""The drill round as a Textual screen: one card at a time, a countdown, keyboard answers, feedback, a summary.

The round itself (``jittrainer.course.drills.round.DrillRound``) owns the rules — the countdowns, grading an answer,
recording it in the schedule — and this screen only shows it and forwards keys. ``clock`` (monotonic seconds) is
injectable, so tests can run a card out of time without waiting.

Hooking it into another app: ``self.push_screen(DrillScreen())`` (a round of 10 cards from the bundled deck);
the screen dismisses itself with the round's ``Summary`` (or None when there was nothing to drill).

In a mock interview (``interview_left``: the interview's seconds left) it says so: "Interview" in the title with the
interview's clock, escape asks before it skips the cards that are left, and it closes when the clock runs out.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from rich.syntax import Syntax
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, ProgressBar, Static

from jittrainer.app.drill.parts import (choices_text, difficulty_word, next_difficulty, proof_words, summary_text,
                                        title_text)
from jittrainer.app.keys import relabel, translate_bindings
from jittrainer.app.screens.confirm import ConfirmScreen
from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.model import AnswerError, Card, Deck
from jittrainer.course.drills.render import comes_back, not_applying_note, outcome_headline
from jittrainer.course.drills.round import DrillRound, Outcome, RoundOptions, Summary, not_applying, plan_round
from jittrainer.course.drills.schedule import Scheduler
from jittrainer.course.versions import installed_jax
from jittrainer.i18n import N_, _, flow, language, ngettext

TICK_S = 0.25
PRELUDE_NOTE = N_("jax, jax.numpy as jnp and numpy as np are imported; 4 CPU devices")


class DrillScreen(Screen[Summary | None]):
    """A drill round. Keys: 1-4 pick a choice (shown in a shuffled order), t/f answer true/false, type + enter for
    typed answers, enter for the next card, p shows the proof snippet after answering, d starts a round of the next
    difficulty, escape ends the round (then r: another round). A key of the wrong kind (a 2 on a true/false card) is
    not an answer: the hint line says how to answer."""

    CSS_PATH = "drill.tcss"
    BINDINGS = [
        Binding("1", "pick('1')", N_("Answer 1-4"), show=False, id="drill.pick1"),
        Binding("2", "pick('2')", show=False, id="drill.pick2"),
        Binding("3", "pick('3')", show=False, id="drill.pick3"),
        Binding("4", "pick('4')", show=False, id="drill.pick4"),
        Binding("t", "pick('t')", N_("True"), show=False, id="drill.true"),
        Binding("f", "pick('f')", N_("False"), show=False, id="drill.false"),
        Binding("enter", "advance", N_("Next card"), id="drill.next",
                tooltip=N_("Go to the next card (or close the summary)")),
        Binding("p", "toggle_proof", N_("Proof"), id="drill.proof",
                tooltip=N_("Show the snippet that proves this answer")),
        Binding("r", "again", N_("New round"), id="drill.again",
                tooltip=N_("Start another round with the same options")),
        Binding("d", "difficulty", N_("Difficulty"), id="drill.difficulty",
                tooltip=N_("Start a round of the next difficulty: all levels, easy, medium, hard")),
        Binding("escape", "end_round", N_("End round"), id="drill.end",
                tooltip=N_("Stop here and see the summary")),
    ]

    @dataclass
    class Answered(Message):
        """A card got its outcome (posted for whoever hosts the screen; the screen itself needs nothing)."""

        outcome: Outcome

    @dataclass
    class Finished(Message):
        summary: Summary

    def __init__(
        self,
        deck: Deck | None = None,
        *,
        options: RoundOptions | None = None,
        cards: list[Card] | None = None,
        scheduler: Scheduler | None = None,
        clock: Callable[[], float] = time.monotonic,
        choose_difficulty: bool = True,
        interview_left: Callable[[], float] | None = None,
        exercise_name: Callable[[str], str] | None = None,
        interview_part: str = "", interview_next: str = "",
        name: str | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id)
        translate_bindings(self)
        self.deck = deck
        self.options = options or RoundOptions()
        self._initial_cards = cards
        self.scheduler = scheduler
        self.clock = clock
        self.choose_difficulty = choose_difficulty  # off in an interview, whose cards are planned for it
        self.interview_left = interview_left  # the mock interview's clock, when this round is its cards
        self.exercise_name = exercise_name  # inside the trainer: an exercise as its list shows it ("09 …")
        self.interview_part = interview_part  # the interview's part these cards are, and what follows it:
        self.interview_next = interview_next or _("the next part")
        if interview_left is not None:  # escape skips the part's cards left (asking first): the footer says so
            relabel(self, "drill.end", _("Skip the rest"))
        self.round: DrillRound | None = None
        self.summary: Summary | None = None
        self.load_problem = ""

    # -- layout ------------------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="drill-card"):
            yield Static("", id="drill-title")
            with Horizontal(id="drill-timer"):
                yield ProgressBar(total=1, show_eta=False, show_percentage=False, id="drill-countdown-bar")
                yield Static("", id="drill-countdown")
            with VerticalScroll(id="drill-body"):
                yield Static("", id="drill-question")
                yield Static("", id="drill-code")
                yield Static("", id="drill-choices")
                yield Input(placeholder=_("type your answer, then press enter"), id="drill-input")
                yield Static("", id="drill-hint")
                yield Static("", id="drill-feedback")
                yield Static("", id="drill-proof")
        with VerticalScroll(id="drill-summary"):
            yield Static("", id="drill-summary-text")
        yield Footer()

    def on_mount(self) -> None:
        self.set_interval(TICK_S, self.tick)
        self.new_round(self._initial_cards)
        note = not_applying_note(not_applying(self.deck), installed_jax()) \
            if self.deck is not None and not self.in_interview else ""  # an interview says it once, not per part
        if note:
            self.notify(note, timeout=6)

    # -- round control -----------------------------------------------------------------------------------------

    def new_round(self, cards: list[Card] | None = None) -> None:
        if self.deck is None:
            self.deck = load_drills()
        if self.scheduler is None:
            self.scheduler = Scheduler()
        if cards is None:
            try:
                cards = plan_round(self.deck, self.options, self.scheduler)
            except KeyError as exc:
                cards, self.load_problem = [], str(exc.args[0])
        self.summary = None
        self.round = DrillRound(cards, scheduler=self.scheduler, budget_s=self.options.budget_s, clock=self.clock,
                                seed=self.options.seed, card_seconds=self.options.card_seconds)
        self.set_class(False, "-finished")
        if self.round.start() is None:
            self._finish()
            return
        self.show_card()

    @property
    def card(self) -> Card | None:
        return self.round.current if self.round is not None else None

    @property
    def in_interview(self) -> bool:
        return self.interview_left is not None

    def _show_title(self) -> None:
        card, drill, deck = self.card, self.round, self.deck
        if card is None or drill is None or deck is None or drill.finished:
            return
        left = self.interview_left() if self.in_interview else None
        self.query_one("#drill-title", Static).update(title_text(card, deck, *drill.position, interview_left=left,
                                                                 interview_part=self.interview_part))

    def show_card(self) -> None:
        card, drill, deck = self.card, self.round, self.deck
        assert card is not None and drill is not None and deck is not None
        self._show_title()
        self.query_one("#drill-question", Static).update(Text(card.text(language()).question.strip()))
        code = self.query_one("#drill-code", Static)
        code.display = bool(card.code)
        if card.code:
            code.update(Syntax(card.code_in(language()).rstrip(), "python", theme="monokai", line_numbers=False,
                               word_wrap=True))
        self._show_choices()
        typed = card.kind in ("text", "count")
        box = self.query_one("#drill-input", Input)
        box.display = typed
        box.disabled = not typed
        box.value = ""
        if typed:
            box.placeholder = _("type {how}, then press enter").format(how=card.prompt)
            box.focus()
        else:
            self.set_focus(None)
        self.query_one("#drill-hint", Static).update(Text(self._how_to_answer(card), style="dim"))
        for widget_id in ("#drill-feedback", "#drill-proof"):
            widget = self.query_one(widget_id, Static)
            widget.update("")
            widget.display = False
        self.set_class(False, "-answered")
        bar = self.query_one("#drill-countdown-bar", ProgressBar)
        bar.update(total=max(drill.seconds_left() or 1.0, 1e-6), progress=drill.seconds_left())
        self.tick()
        self.query_one("#drill-body", VerticalScroll).scroll_home(animate=False)
        self.refresh_bindings()

    def _how_to_answer(self, card: Card) -> str:
        if card.kind in ("choice", "bug"):
            how = _("press 1-{n}").format(n=len(card.choices))
        elif card.kind == "truefalse":
            how = _("press t or f")
        else:
            how = _("type {how} and press enter").format(how=card.prompt)
        ends = _("escape: skip the cards left (asks first)") if self.in_interview else _("escape ends the round")
        return f"{how} · {ends} · {_(PRELUDE_NOTE)}"

    def _show_choices(self, outcome: Outcome | None = None) -> None:
        shown = self.round.current_shown if outcome is None else outcome.shown
        widget = self.query_one("#drill-choices", Static)
        text = choices_text(shown, outcome.response if outcome else None, outcome is not None) if shown else None
        widget.display = text is not None
        if text is not None:
            widget.update(text)

    # -- answering ---------------------------------------------------------------------------------------------

    def action_pick(self, key: str) -> None:
        card, drill = self.card, self.round
        if card is None or drill is None or drill.answered or card.kind in ("text", "count"):
            return
        self.submit(key)  # a key of the wrong kind is refused by the card's parser, and the hint says why

    @on(Input.Submitted, "#drill-input")
    def _typed(self, event: Input.Submitted) -> None:
        event.stop()
        if self.round is not None and not self.round.answered and self.card is not None:
            self.submit(event.value)

    def submit(self, response: str) -> None:
        drill = self.round
        assert drill is not None
        try:
            outcome = drill.answer(response)
        except AnswerError as exc:
            self.query_one("#drill-hint", Static).update(Text(str(exc), style="bold yellow"))
            return
        self.show_outcome(outcome)

    def tick(self) -> None:
        """Refresh the countdown; run the card out of time when it reaches zero (also called by a timer)."""
        drill = self.round
        if self.in_interview and drill is not None and not drill.finished:
            if self.interview_left() <= 0:  # the interview's time is up: it goes on to its report
                drill.quit()
                self.summary = drill.summary() if drill.cards else None
                self.dismiss(self.summary)
                return
            self._show_title()
        if drill is None or drill.finished or drill.current is None:
            return
        if drill.answered:
            return
        left = drill.seconds_left()
        self.query_one("#drill-countdown", Static).update(Text("⏱ " + _("{s} s").format(s=math.ceil(left)),
                                                               style="bold red" if left <= 10 else "bold"))
        bar = self.query_one("#drill-countdown-bar", ProgressBar)
        bar.update(progress=left)
        if drill.expired():
            self.show_outcome(drill.time_out())

    def show_outcome(self, outcome: Outcome) -> None:
        card = outcome.card
        box = self.query_one("#drill-input", Input)
        if box.display:
            box.disabled = True
        self.set_focus(None)
        self._show_choices(outcome)
        feedback = self.query_one("#drill-feedback", Static)
        feedback.set_class(outcome.result == "right", "-right")
        feedback.set_class(outcome.result != "right", "-wrong")
        body = Text(outcome_headline(outcome), style="bold")
        if outcome.result != "right" and outcome.response and outcome.response != "?" and card.kind in ("text", "count"):
            body.append("\n" + _("you answered: {answer}").format(answer=outcome.response.strip()), style="dim")
        body.append("\n\n")
        body.append(flow(card.text(language()).explanation))
        back = comes_back(outcome.state, self.scheduler.now()) if self.scheduler is not None else ""
        if back:
            body.append(f"\n\n{back}", style="dim")
        feedback.update(body)
        feedback.display = True
        self.query_one("#drill-countdown", Static).update(Text(_("answered") if outcome.result != "timeout"
                                                               else _("⏱ time's up"), style="dim"))
        last = self.round is not None and self.round.index + 1 >= len(self.round.cards)
        if self.in_interview:
            hint = _("enter: on to {next} · p: show the proof").format(next=self.interview_next) if last else \
                _("enter: next card · p: show the proof · escape: skip the cards left (asks first)")
        else:
            hint = _("enter: see the summary · p: show the proof · escape: end the round") if last else \
                _("enter: next card · p: show the proof · escape: end the round")
        self.query_one("#drill-hint", Static).update(Text(hint, style="dim"))
        self.set_class(True, "-answered")
        self.refresh_bindings()
        self.post_message(self.Answered(outcome))

    def action_toggle_proof(self) -> None:
        card, drill = self.card, self.round
        if card is None or drill is None or not drill.answered:
            return
        proof = self.query_one("#drill-proof", Static)
        if proof.display:
            proof.display = False
            return
        title = Text(_("Proof: jittrainer validate runs this code and checks that it yields {what}:").format(
            what=proof_words(card)) + "\n", style="dim")
        code = card.proof_code_in(language()).rstrip()
        proof.update(Text.assemble(title, Syntax(code, "python", theme="monokai").highlight(code)))
        proof.display = True
        self.query_one("#drill-body", VerticalScroll).scroll_end(animate=False)

    def action_advance(self) -> None:
        drill = self.round
        if drill is None:
            return
        if drill.finished:
            self.action_close()
            return
        if not drill.answered:
            return
        if drill.next() is None:
            if self.in_interview:  # the interview's report sums the cards up: on to the exercise
                self.summary = drill.summary()
                self.dismiss(self.summary)
                return
            self._finish()
        else:
            self.show_card()

    def action_end_round(self) -> None:
        drill = self.round
        if drill is None:
            return
        if drill.finished:
            self.action_close()
            return
        if self.in_interview:
            self._ask_to_skip(drill)
            return
        drill.quit()
        self._finish()

    def _ask_to_skip(self, drill: DrillRound) -> None:
        left = len(drill.cards) - len(drill.outcomes)
        question = ngettext("{n} card is not answered yet: it counts as not reached in the interview's report.",
                            "{n} cards are not answered yet: they count as not reached in the interview's report.",
                            left).format(n=left) + " " + _("The interview goes on with {next}.").format(
            next=self.interview_next)

        def skip(yes: bool | None) -> None:
            if yes and not drill.finished:
                drill.quit()
                self.summary = drill.summary() if drill.cards else None
                self.dismiss(self.summary)

        self.app.push_screen(ConfirmScreen(_("Skip the cards left?"), question, yes=_("Skip")), skip)

    def action_again(self) -> None:
        if self.round is not None and self.round.finished:
            self.new_round()

    def action_difficulty(self) -> None:
        """A new round of the next difficulty (the card on screen, if unanswered, is left without an outcome)."""
        self.options.difficulty = next_difficulty(self.options.difficulty)
        self.notify(_("Difficulty: {level}").format(level=difficulty_word(self.options.difficulty)), timeout=3)
        if self.round is not None and not self.round.finished:
            self.round.quit()
        self.new_round()

    def action_close(self) -> None:
        self.dismiss(self.summary)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        drill = self.round
        finished = drill is None or drill.finished
        if action == "again":
            return finished and not self.in_interview
        if action == "difficulty":
            return self.choose_difficulty
        if action == "toggle_proof":
            return (not finished and drill is not None and drill.answered) or None
        if action == "advance":
            return finished or (drill is not None and drill.answered) or None
        return True

    # -- summary -----------------------------------------------------------------------------------------------

    def _finish(self) -> None:
        drill, deck = self.round, self.deck
        assert drill is not None and deck is not None
        if not drill.finished:
            drill.quit()
        self.summary = drill.summary() if drill.cards else None
        reason = self.load_problem or (_("No card is due today: run a round without --due to practise anyway.")
                                       if self.options.due_only else _("No cards match these options."))
        text = summary_text(drill, self.summary, deck, self.scheduler, reason, self.exercise_name)
        self.query_one("#drill-summary-text", Static).update(text)
        self.query_one("#drill-title", Static).update(Text(_("Drill · summary"), style="bold"))
        self.set_class(True, "-finished")
        self.set_focus(None)
        self.refresh_bindings()
        if self.summary is not None:
            self.post_message(self.Finished(self.summary))

