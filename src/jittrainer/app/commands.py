"""The command palette's trainer commands: open any exercise, reset, reveal, themes, live grading, hints, run."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

if TYPE_CHECKING:
    from jittrainer.app.trainer import TrainerApp


class TrainerCommands(Provider):
    @property
    def trainer(self) -> TrainerApp:
        return self.app  # type: ignore[return-value]

    def commands(self) -> list[tuple[str, Callable[[], object], str]]:
        app = self.trainer
        found: list[tuple[str, Callable[[], object], str]] = []
        current = app.current.title if app.current is not None else "this exercise"
        found += [
            ("Run the grader", app.action_run, "Grade the editor's text now (ctrl+r)"),
            ("Next hint", app.action_hint, f"Show the next hint tier for {current} (ctrl+t)"),
            ("Reveal solution", app.action_reveal, f"Show the reference solution of {current}"),
            ("Reset exercise", app.action_reset, "Put the starter back in the editor; your draft is kept as a backup"),
            ("Toggle theme", app.action_toggle_dark, "Switch between the dark and the light theme"),
            ("Toggle live grading", app.action_toggle_live,
             f"Grade automatically when you stop typing (now {'on' if app.live_grading else 'off'})"),
            ("Interview drill", app.action_drill, "Predict-the-output cards, proved on your JAX (F4)"),
            ("Help", app.action_help, "Keys, panes and how grading works (F1)"),
        ]
        for exercise in app.exercises:
            status = app.status_of(exercise)
            found.append((
                f"Open exercise: {exercise.number:02d} {exercise.title or exercise.id}",
                partial(app.open_exercise, exercise.id),
                f"{exercise.topic} · {status}" if exercise.available else f"unavailable: {exercise.problems[0]}",
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
