"""The command palette's trainer commands: open any exercise, reset, reveal, language, themes, live grading, hints,
run, drill and interview. They call the main screen's actions, through the app that holds it."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from jittrainer.i18n import LANGUAGES, NAMES, _

# A status as the palette names it: looked up when shown, so a language switch changes it.
STATUS_WORDS = {"new": lambda: _("new"), "attempted": lambda: _("attempted"), "passed": lambda: _("passed"),
                "unavailable": lambda: _("unavailable")}


class TrainerCommands(Provider):
    def commands(self) -> list[tuple[str, Callable[[], object], str]]:
        app = self.app
        screen = app.main_screen  # type: ignore[attr-defined]
        session = app.session  # type: ignore[attr-defined]
        current = session.title(screen.current) if screen.current is not None else _("this exercise")
        found: list[tuple[str, Callable[[], object], str]] = [
            (_("Run the grader"), screen.action_run, _("Grade the editor's text now ({key})").format(
                key=screen.key("run"))),
            (_("Next hint"), screen.action_hint, _("Show the next hint tier for {title} ({key})").format(
                title=current, key=screen.key("hint"))),
            (_("Show the advice"), screen.action_advice, _("What to write for the failing check ({key})").format(
                key=screen.key("advice"))),
            (_("Reveal solution"), screen.action_reveal, _("Show the reference solution of {title}").format(
                title=current)),
            (_("Reset exercise"), screen.action_reset, _("Put the starter back in the editor; your draft is kept as a "
                                                         "backup")),
            (_("Toggle theme"), app.action_toggle_dark, _("Switch between the dark and the light theme")),
            (_("Toggle live grading"), screen.action_toggle_live, _("Grade automatically when you stop typing")),
            (_("Interview drill"), screen.action_drill, _("Predict-the-output cards, proved on your JAX ({key})").format(
                key=screen.key("drill"))),
            (_("Mock interview"), screen.action_interview, _("45 minutes: warm-up cards, an exercise and its follow-up, a debugging task, rapid questions ({key})").format(
                key=screen.key("interview"))),
            (_("Help"), screen.action_help, _("Keys, panes and how grading works ({key})").format(key=screen.key("help"))),
        ]
        for lang in LANGUAGES:
            if lang != session.lang:
                label = _("Language: {name}").format(name=NAMES[lang])
                found.append((label, partial(app.switch_language, lang),
                              _("Show the trainer in {name}").format(name=NAMES[lang])))
        for exercise in session.exercises:
            status = screen.statuses.get(exercise.id, "new")
            found.append((
                _("Open exercise: {number:02d} {title}").format(number=exercise.number, title=session.title(exercise)),
                partial(screen.open_exercise, exercise.id),
                f"{session.course.topic_title(exercise.topic)} · {STATUS_WORDS.get(status, status)()}"
                if exercise.available
                else _("unavailable: {problem}").format(problem=exercise.unavailable_reason()),
            ))
        return found

    async def discover(self) -> Hits:
        for title, callback, help_text in self.commands():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, callback, help_text in self.commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)
