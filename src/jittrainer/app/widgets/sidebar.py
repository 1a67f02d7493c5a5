"""The exercise list: course order, a heading wherever the pack (when packs are loaded) or the topic changes, a
status mark per exercise, and the overall progress underneath. It only shows; choosing an exercise posts
OptionList.OptionSelected to the screen."""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Label, OptionList, ProgressBar
from textual.widgets.option_list import Option

from jittrainer.course.exercises import Exercise
from jittrainer.i18n import _, wrap_title

MARKS = {
    "passed": ("✔", "$text-success"),
    "attempted": ("◐", "$text-warning"),
    "new": ("○", "$text-muted"),
    "unavailable": ("⊘", "$text-error"),
}


INDENT = "     "  # under the title, past "✔ 01 "
REASON_LINES = 3


@dataclass(frozen=True)
class Entry:
    """An exercise as the list shows it: its title, its topic's title and its pack's (or "" when the course has no
    packs) in the learner's language."""

    exercise: Exercise
    title: str
    topic: str
    pack: str = ""


def exercise_prompt(entry: Entry, status: str, width: int = 26) -> Content:
    """Mark, number and title, wrapped by hand so continuation lines hang under the title, not under the mark."""
    exercise = entry.exercise
    mark, style = MARKS.get(status, MARKS["new"])
    width = max(width, len(INDENT) + 8)
    lines = wrap_title(entry.title, width - len(INDENT)) or [""]
    text = "\n".join([lines[0], *(INDENT + line for line in lines[1:])])
    prompt = Content.assemble((mark, style), " ", (f"{exercise.number:02d}", "$text-muted"), " ", text)
    if not exercise.available:
        reason = exercise.unavailable_reason()
        # The folder is the exercise itself.
        reason = reason.removeprefix(f"{exercise.dir.name}/").removeprefix(f"{exercise.dir.name}: ")
        # Wrapped as titles are: a Chinese reason breaks between phrases, never inside a word.
        wrapped = wrap_title(_("unavailable: {reason}").format(reason=reason), width - len(INDENT))
        if len(wrapped) > REASON_LINES:  # the Task pane lists every problem in full
            wrapped = [*wrapped[: REASON_LINES - 1], wrapped[REASON_LINES - 1][: width - len(INDENT) - 1] + "…"]
        prompt = Content.assemble(prompt, "\n", ("\n".join(INDENT + line for line in wrapped), "$text-error"))
    return prompt


class ExerciseList(Vertical):
    """Sidebar: one option per exercise (id = exercise id) under disabled topic headings."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._shown: tuple[list[Entry], dict[str, str]] = ([], {})
        self._width = 0

    def compose(self) -> ComposeResult:
        yield OptionList(id="exercise-list")
        yield Label("", id="progress-label")
        yield ProgressBar(total=1, show_eta=False, id="progress-bar")

    def _prompt_width(self) -> int:
        # Inside the border, minus the option list's padding and a scrollbar that may appear.
        return max(self.size.width - 4, 20) if self.size.width else 24

    def on_resize(self, event: events.Resize) -> None:
        if self._prompt_width() != self._width and self._shown[0]:
            option_list = self.query_one(OptionList)
            highlighted = option_list.highlighted
            self.show(*self._shown, None)
            option_list.highlighted = highlighted

    def show(self, entries: list[Entry], statuses: dict[str, str], current: str | None) -> None:
        self._shown = (entries, statuses)
        self._width = width = self._prompt_width()
        options: list[Option | None] = []
        pack, topic = "", None
        for entry in entries:
            if entry.pack != pack:
                pack, topic = entry.pack, None
                options.append(Option(Content.styled(f"━ {pack}", "bold $text-primary"), disabled=True))
            if entry.topic != topic:
                topic = entry.topic
                options.append(Option(Content.styled(topic or _("Other"), "bold $text-accent"), disabled=True))
            options.append(Option(exercise_prompt(entry, statuses[entry.exercise.id], width), id=entry.exercise.id))
        option_list = self.query_one(OptionList)
        option_list.set_options(options)
        self.update_progress(statuses)
        if current is not None:
            self.select(current)

    def set_status(self, exercise: Exercise, status: str) -> None:
        self._shown[1][exercise.id] = status
        entry = next((e for e in self._shown[0] if e.exercise.id == exercise.id), None)
        if entry is not None:
            self.query_one(OptionList).replace_option_prompt(exercise.id, exercise_prompt(entry, status, self._width))

    def update_progress(self, statuses: dict[str, str]) -> None:
        total = len(statuses)
        passed = sum(status == "passed" for status in statuses.values())
        self.query_one("#progress-label", Label).update(_("{passed} of {total} passed").format(passed=passed,
                                                                                             total=total))
        self.query_one(ProgressBar).update(total=max(total, 1), progress=passed)

    def select(self, exercise_id: str) -> None:
        option_list = self.query_one(OptionList)
        try:
            option_list.highlighted = option_list.get_option_index(exercise_id)
        except Exception:  # noqa: BLE001 - an id not in the list (yet) just leaves the highlight alone
            return
        option_list.scroll_to_highlight()
