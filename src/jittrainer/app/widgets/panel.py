"""The panel beside (or below) the editor: one tab per thing to read, so the statement and the verdict are always
one key away. Tabs: Task, Hints, Checks, Output, Jaxpr, Timing, Recompiles, Why. It shows; it never grades.

TabbedContent is wrapped, not subclassed: a subclass that overrides ``compose`` loses its active tab.

With the focus anywhere in the panel (escape from the editor, or tab), the arrows, j/k, PageUp/PageDown, space,
Home and End scroll the tab on show (left/right still switch tabs); F8 fills the screen with it. The screen's
alt+PageUp/alt+PageDown scroll it from the editor without leaving it (``scroll``).
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.visual import VisualType
from textual.widget import Widget
from textual.widgets import Markdown, Sparkline, Static, TabbedContent, TabPane

from jittrainer.app.keys import PANEL_KEYS, bindings, translate_bindings
from jittrainer.app.widgets.fence import LessonMarkdown
from jittrainer.app.widgets.panes.checks import render_checks
from jittrainer.app.widgets.panes.common import PaneContext
from jittrainer.app.widgets.panes.jaxpr import render_jaxpr, render_jaxpr_code
from jittrainer.app.widgets.panes.output import render_output
from jittrainer.app.widgets.panes.recompiles import render_recompiles
from jittrainer.app.widgets.panes.scratch import (
    MARK,
    jitted_compiles,
    render_scratch_jaxpr,
    render_scratch_jaxpr_code,
    render_scratch_output,
    render_scratch_recompiles,
)
from jittrainer.app.widgets.panes.timing import render_timing
from jittrainer.grading.scratch import ScratchRun
from jittrainer.grading.verdict import Verdict
from jittrainer.i18n import _

TABS = ("task", "hints", "checks", "output", "jaxpr", "timing", "recompiles", "why")
VERDICT_TABS = ("checks", "output", "jaxpr", "timing", "recompiles")
MARKDOWN_TABS = ("task", "hints", "why")


def tab_title(tab: str) -> str:
    return {"task": _("Task"), "hints": _("Hints"), "checks": _("Checks"), "output": _("Output"), "jaxpr": "Jaxpr",
            "timing": _("Timing"), "recompiles": _("Recompiles"), "why": _("Why")}[tab]


class TimingChart(Widget):
    """The timing bars, drawn for the width they have (so they never wrap)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.verdict: Verdict | None = None
        self.context = PaneContext()
        self.pending = False

    def show(self, verdict: Verdict | None, context: PaneContext, pending: bool) -> None:
        self.verdict, self.context, self.pending = verdict, context, pending
        self.refresh(layout=True)

    def render(self) -> VisualType:
        return render_timing(self.verdict, self.context, self.pending, self.content_size.width or 60)


class PaneScroll(VerticalScroll, can_focus=False):
    """A verdict tab's scroller. Not a stop of its own for tab: the panel is one stop (its tab strip), and the
    panel's keys scroll the tab on show (``InfoPanel.scroll``)."""


class InfoPanel(Vertical):
    ALLOW_MAXIMIZE = True  # a container is not focusable: without this, F8 from inside it maximizes nothing
    BINDINGS = bindings(PANEL_KEYS)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        translate_bindings(self)
        self.labels: dict[str, str] = {}  # what a tab adds to its title: "1/3" for hints, "✘" for checks
        self._pending: dict[str, tuple[str, bool]] = {}  # a hidden Markdown tab's next text (and hints' scroll)
        # The tab on show when the app opened it (a scratch run opens Output, a hint Hints), None once the learner
        # moved to a tab themselves: a new verdict leaves a verdict tab the learner chose where it is.
        self.opened_by_app: str | None = "task"

    def compose(self) -> ComposeResult:
        with TabbedContent(id="panel-tabs", initial="tab-task"):
            for tab in TABS:
                with TabPane(tab_title(tab), id=f"tab-{tab}"):
                    if tab in MARKDOWN_TABS:
                        yield LessonMarkdown("", id=f"{tab}-body", classes="pane-markdown")
                        continue
                    with PaneScroll(id=f"{tab}-scroll", classes="pane-scroll"):
                        if tab == "checks":
                            # While a grade runs: its time against the limit (MainScreen ticks it).
                            yield Static("", id="grade-clock")
                        if tab == "timing":
                            yield TimingChart(id="timing-body", classes="pane-body")
                            yield Sparkline([], id="timing-sparkline")
                        else:
                            yield Static(id=f"{tab}-body", classes="pane-body")
                        if tab == "jaxpr":
                            # Its own widget that does not wrap: a jaxpr line broken in two reads wrong.
                            yield Static(id="jaxpr-code")

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one("#panel-tabs", TabbedContent)

    @property
    def active(self) -> str:
        return self.tabs.active.removeprefix("tab-")

    def localize(self) -> None:
        translate_bindings(self)
        for tab in TABS:
            self._label(tab)

    def _label(self, tab: str, extra: str | None = None) -> None:
        if extra is not None:
            self.labels[tab] = extra
        suffix = self.labels.get(tab, "")
        self.tabs.get_tab(f"tab-{tab}").label = f"{tab_title(tab)} {suffix}".strip()

    # -- reading ---------------------------------------------------------------------------------------------

    def show_markdown(self, tab: str, text: str, *, scroll_home: bool = True) -> None:
        if tab != self.active:
            # Laid out when its tab opens: Markdown builds a widget per block, and at start-up the hidden tabs'
            # blocks would delay the first frame.
            self._pending[tab] = (text, False)
            return
        self._pending.pop(tab, None)
        markdown = self.query_one(f"#{tab}-body", Markdown)
        markdown.update(text)
        if scroll_home:
            markdown.scroll_home(animate=False)

    def markdown_source(self, tab: str) -> str:
        """What a Markdown tab shows, or will show once it is opened."""
        pending = self._pending.get(tab)
        return pending[0] if pending else self.query_one(f"#{tab}-body", Markdown).source

    @on(TabbedContent.TabActivated, "#panel-tabs")
    async def _tab_opened(self, event: TabbedContent.TabActivated) -> None:
        tab = self.active
        if tab != self.opened_by_app:  # the learner's own move: a click, or left / right in the tab strip
            self.opened_by_app = None
        pending = self._pending.pop(tab, None)
        if pending is None:
            return
        text, newest_on_top = pending
        if tab == "hints":
            await self._update_hints(text, newest_on_top)
        else:
            self.show_markdown(tab, text)

    async def show_hints(self, text: str, shown: int, total: int, newest_on_top: bool) -> None:
        self._label("hints", f"{shown}/{total}" if total else "")
        if self.active != "hints":
            self._pending["hints"] = (text, newest_on_top)
            return
        self._pending.pop("hints", None)
        await self._update_hints(text, newest_on_top)

    async def _update_hints(self, text: str, newest_on_top: bool) -> None:
        markdown = self.query_one("#hints-body", Markdown)
        await markdown.update(text)  # the blocks exist only once this is done
        headings = list(markdown.query("MarkdownH2"))
        if newest_on_top and headings:
            # The newest tier is the one to read: its heading goes to the top of the pane, once laid out.
            newest = headings[-1]
            self.call_after_refresh(lambda: markdown.scroll_to_widget(newest, top=True, animate=False))

    def set_why_locked(self, locked: bool) -> None:
        self._label("why", "" if locked else "✔")

    # -- the verdict -----------------------------------------------------------------------------------------

    def show_verdict(self, verdict: Verdict | None, context: PaneContext, *, running: bool = False,
                     timing_pending: bool = False, scroll_home: bool = False) -> None:
        self.query_one("#checks-body", Static).update(render_checks(verdict, context, running))
        self.query_one("#output-body", Static).update(render_output(verdict, context))
        self.query_one("#jaxpr-body", Static).update(render_jaxpr(verdict, context))
        code = self.query_one("#jaxpr-code", Static)
        code.update(render_jaxpr_code(verdict))
        code.display = verdict is not None and verdict.jaxpr is not None
        self.query_one("#timing-body", TimingChart).show(verdict, context, timing_pending)
        self.query_one("#recompiles-body", Static).update(render_recompiles(verdict, context))
        sparkline = self.query_one("#timing-sparkline", Sparkline)
        samples = verdict.timing.steady_samples if verdict is not None and not timing_pending else []
        sparkline.data = list(samples)
        sparkline.display = bool(samples)
        self._label("output", "")
        self._label("jaxpr", "")
        self._label("recompiles", "" if verdict is None or verdict.compiles is None else str(verdict.compiles))
        self._label("checks", "" if verdict is None else {"pass": "✔", "fail": "✘", "error": "⚠"}[verdict.status])
        if scroll_home:
            for tab in VERDICT_TABS:
                self.query_one(f"#{tab}-scroll", VerticalScroll).scroll_home(animate=False)

    def show_scratch(self, run: ScratchRun, context: PaneContext, *, scroll_home: bool = False) -> None:
        """A scratch run over the Output, Jaxpr and Recompiles tabs (each marked); Checks keeps the last verdict."""
        self.query_one("#output-body", Static).update(render_scratch_output(run, context))
        self.query_one("#jaxpr-body", Static).update(render_scratch_jaxpr(run, context))
        code = self.query_one("#jaxpr-code", Static)
        code.update(render_scratch_jaxpr_code(run))
        code.display = bool(run.jaxprs)
        self.query_one("#recompiles-body", Static).update(render_scratch_recompiles(run, context))
        self._label("output", MARK)
        self._label("jaxpr", MARK)
        self._label("recompiles", f"{jitted_compiles(run)} {MARK}" if run.calls else MARK)
        if scroll_home:
            for tab in ("output", "jaxpr", "recompiles"):
                self.query_one(f"#{tab}-scroll", VerticalScroll).scroll_home(animate=False)

    # -- scrolling -------------------------------------------------------------------------------------------

    def scroller(self, tab: str | None = None) -> Widget:
        """The widget that scrolls ``tab`` (default: the one on show)."""
        tab = tab or self.active
        if tab in MARKDOWN_TABS:
            return self.query_one(f"#{tab}-body", Markdown)
        return self.query_one(f"#{tab}-scroll", VerticalScroll)

    def scroll(self, how: str) -> None:
        """Scroll the tab on show: ``down``, ``up``, ``page_down``, ``page_up``, ``home`` or ``end``. At once, not
        after the next refresh (Textual's scroll_page_down waits for it, so five quick PageDowns moved one page)."""
        target = self.scroller()
        y, page = target.scroll_y, max(target.scrollable_content_region.height, 1)
        to = {"down": y + 1, "up": y - 1, "page_down": y + page, "page_up": y - page, "home": 0,
              "end": target.max_scroll_y}[how]
        target.scroll_to(y=max(0, min(to, target.max_scroll_y)), animate=False, immediate=True)

    def action_scroll(self, how: str) -> None:
        self.scroll(how)

    def show_clock(self, text: str | None) -> None:
        clock = self.query_one("#grade-clock", Static)
        clock.display = text is not None
        if text is not None:
            clock.update(text)

    # -- tabs ------------------------------------------------------------------------------------------------

    def switch(self, tab: str, *, chosen: bool = False) -> None:
        """Show ``tab``; ``chosen``: the learner asked for this very tab (F3 / F4), not the app on their behalf."""
        self.opened_by_app = None if chosen else tab
        self.tabs.active = f"tab-{tab}"

    def learner_chose(self, tab: str) -> bool:
        """Whether ``tab`` is on show because the learner moved there, not because the app opened it."""
        return self.active == tab and self.opened_by_app is None

    def cycle(self, step: int) -> str:
        """Show the tab ``step`` places on (wrapping); returns its name."""
        active = self.active
        tab = TABS[(TABS.index(active) + step) % len(TABS)] if active in TABS else TABS[0]
        self.switch(tab, chosen=True)
        return tab
