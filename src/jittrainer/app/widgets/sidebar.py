"""The exercise list: course order, a heading wherever the topic changes, a status mark per exercise, and the
overall progress underneath. It only shows; choosing an exercise posts OptionList.OptionSelected to the app."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Label, OptionList, ProgressBar
from textual.widgets.option_list import Option

from jittrainer.core.exercises import Exercise

MARKS = {
    "passed": ("✔", "$text-success"),
    "attempted": ("◐", "$text-warning"),
    "new": ("○", "$text-muted"),
    "unavailable": ("⊘", "$text-error"),
}


def exercise_prompt(exercise: Exercise, status: str) -> Content:
    mark, style = MARKS.get(status, MARKS["new"])
    title = exercise.title or exercise.id
    prompt = Content.assemble((mark, style), " ", (f"{exercise.number:02d}", "$text-muted"), " ", title)
    if not exercise.available:
        reason = exercise.problems[0] if exercise.problems else "broken"
        prompt = Content.assemble(prompt, "\n", (f"unavailable: {reason}", "$text-error 70%"))
    return prompt


class ExerciseList(Vertical):
    """Sidebar: one option per exercise (id = exercise id) under disabled topic headings."""

    def compose(self) -> ComposeResult:
        yield OptionList(id="exercise-list")
        yield Label("", id="progress-label")
        yield ProgressBar(total=1, show_eta=False, id="progress-bar")

    def show(self, exercises: list[Exercise], statuses: dict[str, str], current: str | None) -> None:
        options: list[Option | None] = []
        topic = None
        for exercise in exercises:
            if exercise.topic != topic:
                topic = exercise.topic
                options.append(Option(Content.styled(topic or "Other", "bold $text-accent"), disabled=True))
            options.append(Option(exercise_prompt(exercise, statuses[exercise.id]), id=exercise.id))
        option_list = self.query_one(OptionList)
        option_list.set_options(options)
        self.update_progress(statuses)
        if current is not None:
            self.select(current)

    def set_status(self, exercise: Exercise, status: str) -> None:
        self.query_one(OptionList).replace_option_prompt(exercise.id, exercise_prompt(exercise, status))

    def update_progress(self, statuses: dict[str, str]) -> None:
        total = len(statuses)
        passed = sum(status == "passed" for status in statuses.values())
        self.query_one("#progress-label", Label).update(f"{passed} of {total} passed")
        self.query_one(ProgressBar).update(total=max(total, 1), progress=passed)

    def select(self, exercise_id: str) -> None:
        option_list = self.query_one(OptionList)
        try:
            option_list.highlighted = option_list.get_option_index(exercise_id)
        except Exception:  # noqa: BLE001 - an id not in the list (yet) just leaves the highlight alone
            return
        option_list.scroll_to_highlight()
