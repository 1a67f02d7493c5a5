"""The verdict, in five tabs: Checks, Output, Jaxpr, Timing, Recompiles. Shows a Verdict; never grades."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Sparkline, Static, TabbedContent, TabPane

from jittrainer.app.widgets.panes.checks import render_checks
from jittrainer.app.widgets.panes.jaxpr import render_jaxpr
from jittrainer.app.widgets.panes.output import render_output
from jittrainer.app.widgets.panes.recompiles import render_recompiles
from jittrainer.app.widgets.panes.timing import render_timing
from jittrainer.core.verdict import Verdict

PANES = ("checks", "output", "jaxpr", "timing", "recompiles")


class VerdictPanel(Vertical):
    def compose(self) -> ComposeResult:
        with TabbedContent(id="verdict-tabs"):
            for pane in PANES:
                with TabPane(pane.capitalize(), id=f"tab-{pane}"):
                    with VerticalScroll(id=f"{pane}-scroll", classes="pane-scroll"):
                        yield Static(id=f"{pane}-body", classes="pane-body")
                        if pane == "timing":
                            yield Sparkline([], id="timing-sparkline")

    def on_mount(self) -> None:
        self.show(None)

    def show(
        self, verdict: Verdict | None, *, running: bool = False, timing_pending: bool = False, scroll_home: bool = False
    ) -> None:
        self.query_one("#checks-body", Static).update(render_checks(verdict, running))
        self.query_one("#output-body", Static).update(render_output(verdict))
        self.query_one("#jaxpr-body", Static).update(render_jaxpr(verdict))
        self.query_one("#timing-body", Static).update(render_timing(verdict, timing_pending))
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
        self.query_one("#checks-body", Static).update(render_checks(verdict, running))

    def switch(self, pane: str) -> None:
        self.query_one(TabbedContent).active = f"tab-{pane}"
