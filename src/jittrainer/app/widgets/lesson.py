"""What to read: the task (statement), the hints taken so far, and, after a pass or a reveal, why it works.

TabbedContent is wrapped, not subclassed: a subclass that overrides ``compose`` loses its active tab.
"""

from __future__ import annotations

import re

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Markdown, TabbedContent, TabPane

from jittrainer.core.exercises import Exercise, Hint

LOCKED = (
    "*Pass the exercise to read why the fix works.*\n\n"
    "Stuck? Take a hint with **ctrl+t**, or reveal the reference solution from the command palette "
    "(**ctrl+p** → *Reveal solution*)."
)


def unavailable_markdown(exercise: Exercise) -> str:
    problems = "\n".join(f"- `{p}`" for p in exercise.problems)
    return (
        f"# {exercise.title or exercise.id}\n\n"
        f"**This exercise is unavailable**: its folder `{exercise.dir.name}` is incomplete or malformed, so it "
        f"cannot be graded yet. This is a problem with the course, not with your code.\n\n{problems}\n\n"
        "Pick another exercise with **ctrl+n** / **ctrl+b**. `jittrainer validate` lists the same problems."
    )


NUMBERED = re.compile(r"^\d+[.)]\s+")  # hints.md titles often number themselves: "## 2. A print that ..."


def hints_markdown(hints: list[Hint], shown: int, key: str) -> str:
    if not hints:
        return "*This exercise has no hints.*"
    parts = [f"## Hint {hint.level} of {len(hints)}: {NUMBERED.sub('', hint.title)}\n\n{hint.body}"
             for hint in hints[:shown]]
    if shown < len(hints):
        what = "the first hint" if shown == 0 else "the next hint"
        parts.append(f"*Press **{key}** for {what} ({len(hints) - shown} of {len(hints)} left). Hints come one "
                     "tier at a time, from a nudge to nearly the answer.*")
    else:
        parts.append("*That was the last hint.*")
    return "\n\n".join(parts)


def explanation_markdown(explanation: str | None, solution: str | None) -> str:
    if explanation is None and solution is None:
        return LOCKED
    parts = []
    if explanation is not None:
        parts.append(explanation.strip())
    if solution is not None:
        parts.append(f"## Reference solution\n\n```python\n{solution.rstrip()}\n```")
    return "\n\n".join(parts)


class Lesson(Vertical):
    def compose(self) -> ComposeResult:
        with TabbedContent(id="lesson-tabs"):
            with TabPane("Task", id="tab-task"):
                yield Markdown("", id="statement")
            with TabPane("Hints", id="tab-hints"):
                yield Markdown("", id="hints")
            with TabPane("Explanation", id="tab-explanation"):
                yield Markdown(LOCKED, id="explanation")

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one("#lesson-tabs", TabbedContent)

    def show_task(self, text: str) -> None:
        self.query_one("#statement", Markdown).update(text)
        self.query_one("#statement", Markdown).scroll_home(animate=False)

    def show_hints(self, hints: list[Hint], shown: int, key: str) -> None:
        label = f"Hints {shown}/{len(hints)}" if hints else "Hints"
        self.tabs.get_tab("tab-hints").label = label
        self.run_worker(self._update_hints(hints_markdown(hints, shown, key), bool(shown)), group="hints",
                        exclusive=True)

    async def _update_hints(self, text: str, newest_on_top: bool) -> None:
        markdown = self.query_one("#hints", Markdown)
        await markdown.update(text)  # the blocks exist only once this is done
        headings = list(markdown.query("MarkdownH2"))
        if newest_on_top and headings:
            # The newest tier is the one to read: its heading goes to the top of the pane.
            markdown.scroll_to_widget(headings[-1], top=True, animate=False)

    def show_explanation(self, explanation: str | None, solution: str | None) -> None:
        self.query_one("#explanation", Markdown).update(explanation_markdown(explanation, solution))
        unlocked = explanation is not None or solution is not None
        self.tabs.get_tab("tab-explanation").label = "Explanation" if unlocked else "Explanation (locked)"

    def switch(self, tab: str) -> None:
        self.tabs.active = f"tab-{tab}"
