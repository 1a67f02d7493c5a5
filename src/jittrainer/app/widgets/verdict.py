"""The verdict, in five tabs: Checks, Output, Jaxpr, Timing, Recompiles. Shows a Verdict; never grades."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.visual import VisualType
from textual.widget import Widget
from textual.widgets import Sparkline, Static, TabbedContent, TabPane

from jittrainer.app.widgets.panes.checks import render_checks
from jittrainer.app.widgets.panes.jaxpr import render_jaxpr, render_jaxpr_code
from jittrainer.app.widgets.panes.output import render_output
from jittrainer.app.widgets.panes.recompiles import render_recompiles
from jittrainer.app.widgets.panes.timing import render_timing
from jittrainer.core.verdict import Verdict

PANES = ("checks", "output", "jaxpr", "timing", "recompiles")


class TimingChart(Widget):
    """The timing bars, drawn for the width they have (so they never wrap)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.verdict: Verdict | None = None
        self.pending = False

    def show(self, verdict: Verdict | None, pending: bool) -> None:
        self.verdict, self.pending = verdict, pending
        self.refresh(layout=True)

    def render(self) -> VisualType:
        return render_timing(self.verdict, self.pending, self.content_size.width or 60)


class VerdictPanel(Vertical):
    def compose(self) -> ComposeResult:
        with TabbedContent(id="verdict-tabs"):
            for pane in PANES:
                with TabPane(pane.capitalize(), id=f"tab-{pane}"):
                    with VerticalScroll(id=f"{pane}-scroll", classes="pane-scroll"):
                        if pane == "timing":
                            yield TimingChart(id="timing-body", classes="pane-body")
                            yield Sparkline([], id="timing-sparkline")
                        else:
                            yield Static(id=f"{pane}-body", classes="pane-body")
                        if pane == "jaxpr":
                            # Its own widget that does not wrap: a jaxpr line broken in two reads wrong.
                            yield Static(id="jaxpr-code")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.path_aliases: dict[str, str] = {}  # full draft path -> what the learner knows it as

    def on_mount(self) -> None:
        self.show(None)

    def show(
        self, verdict: Verdict | None, *, running: bool = False, timing_pending: bool = False, scroll_home: bool = False
    ) -> None:
        self.query_one("#checks-body", Static).update(render_checks(verdict, running, self.path_aliases))
        self.query_one("#output-body", Static).update(render_output(verdict))
        self.query_one("#jaxpr-body", Static).update(render_jaxpr(verdict))
        code = self.query_one("#jaxpr-code", Static)
        code.update(render_jaxpr_code(verdict))
        code.display = verdict is not None and verdict.jaxpr is not None
        self.query_one("#timing-body", TimingChart).show(verdict, timing_pending)
        self.query_one("#recompiles-body", Static).update(render_recompiles(verdict))
        sparkline = self.query_one("#timing-sparkline", Sparkline)
        samples = verdict.timing.steady_samples if verdict is not None and not timing_pending else []
        sparkline.data = list(samples)
        sparkline.display = bool(samples)
        tabs = self.query_one(TabbedContent)
        compiles = verdict.compiles if verdict is not None else None
        tabs.get_tab("tab-recompiles").label = "Recompiles" if compiles is None else f"Recompiles {compiles}"
        if verdict is None:
            checks = "Checks"
        else:
            checks = {"pass": "Checks ✔", "fail": "Checks ✘", "error": "Checks ⚠"}[verdict.status]
        tabs.get_tab("tab-checks").label = checks
        if scroll_home:
            for pane in PANES:
                self.query_one(f"#{pane}-scroll", VerticalScroll).scroll_home(animate=False)

    def show_running(self, running: bool, verdict: Verdict | None) -> None:
        self.query_one("#checks-body", Static).update(render_checks(verdict, running, self.path_aliases))

    def switch(self, pane: str) -> None:
        self.query_one(TabbedContent).active = f"tab-{pane}"

    def cycle(self, step: int) -> str:
        """Show the pane ``step`` places on (wrapping); returns its name."""
        active = self.query_one(TabbedContent).active.removeprefix("tab-")
        pane = PANES[(PANES.index(active) + step) % len(PANES)] if active in PANES else PANES[0]
        self.switch(pane)
        return pane
