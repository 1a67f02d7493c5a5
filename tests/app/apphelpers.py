"""Helpers (not fixtures) for the app's Pilot and snapshot tests.

Every test already has a fresh JITTRAINER_HOME (tests/conftest.py). Apps built here start no spare worker (a test
that grades pays for a cold worker only when it grades) and skip the timing phase, to keep the suite quick.
"""

from __future__ import annotations

import re
from pathlib import Path

from helpers import wait_until  # noqa: F401  (the app tests import it from here)
from textual.widgets import Markdown

from jittrainer.app import TrainerApp
from jittrainer.app.screens.main import GradeState, MainScreen
from jittrainer.grading.verdict import CacheMiss, CheckResult, ErrorInfo, Jaxpr, OutputSection, Timing, Verdict
from jittrainer.i18n.message import Msg

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
FIXTURE_EXERCISES = Path(__file__).resolve().parent / "fixtures" / "exercises"
GRADE_TIMEOUT = 90.0  # a cold worker imports jax; on a loaded 2-core machine that can take a while


def make_app(exercises_dir: Path = EXERCISES, **kwargs) -> TrainerApp:
    options = {"prestart_workers": False, "grade_timing": False, "disk_poll_interval": 0.1, "lang": "en"}
    options.update(kwargs)
    app = TrainerApp(exercises_dir=exercises_dir, **options)
    # Every notice is logged when it is raised: Textual records one only when its Notify message is handled (later,
    # under load, than the change that raised it) and forgets it when its timeout ends (3 s for some of ours).
    shown: list[tuple[str, str]] = []
    raise_notice = app.notify

    def notify(message, **how):
        shown.append((str(message), how.get("severity", "information")))
        return raise_notice(message, **how)

    app.notify = notify
    app.notices_raised = shown
    return app


def screen(app: TrainerApp) -> MainScreen:
    return app.main_screen


def text(message: str) -> Msg:
    """A message as a hand-made verdict carries it (no catalog: it shows as written)."""
    return Msg("test", message.replace("{", "{{").replace("}", "}}"))


async def palette_offers(pilot, app: TrainerApp, typed: str, words: str, timeout: float = 15.0) -> None:
    """Wait until the command palette holds ``typed``, has finished searching for it (in a worker) and lists first
    an entry with ``words``, which Enter then runs. No fixed pause is long enough on a loaded machine."""
    from textual.command import CommandList, CommandPalette
    from textual.widgets import Input

    def offered() -> bool:
        palette = app.screen
        if not isinstance(palette, CommandPalette) or palette.query_one(Input).value != typed:
            return False
        if any(worker.node is palette and not worker.is_finished for worker in app.workers):
            return False
        results = palette.query_one(CommandList)
        if results.option_count == 0:
            return False
        prompt = results.get_option_at_index(0).prompt
        return words in str(getattr(prompt, "plain", prompt))

    await wait_until(pilot, offered, timeout, f"the palette to offer {words!r}")


async def wait_for_verdict(pilot, app: TrainerApp, timeout: float = GRADE_TIMEOUT) -> Verdict:
    s = app.main_screen
    await wait_until(pilot, lambda: s.grade_state is None and s.current.id in s.verdicts, timeout, "a verdict")
    await pilot.pause()
    return s.shown_verdict(s.current)


def source_head(markdown: Markdown) -> str:
    """The first characters of what a Markdown widget was last given, without markup or spaces: as it draws them."""
    for line in (markdown.source or "").splitlines():
        bare = "".join(re.sub(r"[#*`_>]", "", line).split())
        if bare:
            return bare[:6]
    return ""


def markdown_drawn(markdown: Markdown) -> bool:
    """The text a Markdown widget was last given is on screen: its blocks are mounted and laid out.

    The widget takes a new text at once but parses it in a thread and mounts its blocks after: until then its old
    blocks (or none) are what is drawn, for over a second on a loaded machine. No fixed pause is long enough."""
    if markdown.lock.is_locked:
        return False
    leaves = [block for block in markdown.query("MarkdownBlock") if not block.query("MarkdownBlock")]
    if not leaves:
        return not markdown.source
    return source_head(markdown) in "".join(plain(leaves[0]).split()) and leaves[0].region.height > 0


async def lesson_drawn(pilot, app: TrainerApp, tab: str = "task") -> None:
    """Wait until the lesson tab ``tab`` (a Markdown pane) draws the text it was given."""
    body = app.main_screen.panel.query_one(f"#{tab}-body", Markdown)
    await wait_until(pilot, lambda: markdown_drawn(body), 30, f"the {tab} tab's text drawn")
    await pilot.pause()


def list_wrapped(screen: MainScreen) -> bool:
    """The exercise list is shown and its titles are wrapped for the width it has now (its on_resize wraps them again
    after a layout)."""
    sidebar = screen.sidebar
    return sidebar.region.width > 0 and sidebar._width == sidebar._prompt_width()


def notifications(app: TrainerApp, severity: str | None = None) -> list[str]:
    """Every notice the app raised so far (of ``severity``, if given), oldest first; see make_app: none is lost to
    timing."""
    return [message for message, level in app.notices_raised if severity in (None, level)]


def plain(widget) -> str:
    """The text a Static (or our TimingChart) shows, without styles."""
    visual = widget.render()
    return getattr(visual, "plain", str(visual))


# The fixture exercise has no message catalog: a Chinese verdict carries its words as the exercise's would render.
VERDICT_WORDS = {
    "en": {"headline": "double printed 1 line over 3 calls: the print ran once, while tracing",
           "runs": ("double runs under jax.jit", "3 calls returned"), "values": ("returns 2 * x", "all 3 results match"),
           "prints": "every call prints x", "advice": "print with jax.debug.print",
           "extra": ("a check after the failure", "skipped: an earlier check failed")},
    "zh": {"headline": "double 在 3 次调用中只打印了 1 行：print 只在追踪时运行了一次",
           "runs": ("double 能在 jax.jit 下运行", "3 次调用都返回了"), "values": ("返回 2 * x", "3 个结果全部一致"),
           "prints": "每次调用都打印 x", "advice": "用 jax.debug.print 打印",
           "extra": ("失败之后的一个检查项", "未检查：前面的检查项失败了")},
}


def failing_verdict(lang: str = "en") -> Verdict:
    """A fixed verdict with something in every pane and no timing-dependent text."""
    words = VERDICT_WORDS[lang]
    return Verdict(
        exercise="demo_print",
        status="fail",
        headline=text(words["headline"]),
        checks=[
            CheckResult("runs", text(words["runs"][0]), "pass", text(words["runs"][1])),
            CheckResult("values", text(words["values"][0]), "pass", text(words["values"][1])),
            CheckResult("prints_each_call", text(words["prints"]), "fail", text(words["headline"]),
                        advice=text(words["advice"]), advice_tier=2),
            CheckResult("extra", text(words["extra"][0]), "skip", text(words["extra"][1])),
        ],
        traces=2,
        compiles=2,
        cache_misses=[
            CacheMiss(1, "jit(double)", text("first call of double: nothing was compiled for it yet"), kind="first"),
            CacheMiss(3, "jit(double)", text("x changed from f32[4] to f32[8]: a new shape or dtype needs a new "
                                             "compile"), kind="types"),
        ],
        output="x is JitTracer(float32[4])\n",
        output_sections=[OutputSection("call 1", "x is JitTracer(float32[4])\n")],
        jaxpr=Jaxpr(
            text="{ lambda a:f32[3]; b:f32[4]. let\n    c:f32[4] = mul b 2.0:f32[]\n"
                 "    debug_print[fmt=x is {x} ordered=False] b\n  in (c,) }",
            function="double",
            primitives={"mul": 1, "debug_print": 1},
            callbacks=["debug_print"],
            constants=["f32[3] (12 bytes)"],
            effects=["DebugEffect"],
        ),
        timing=Timing(
            status="measured", compile_s=0.2, trace_s=0.05, calls_s=0.3, steady_s=2e-05,
            steady_samples=[2e-05, 2.5e-05, 2e-05, 3e-05, 2.2e-05, 2e-05, 2.1e-05, 4e-05, 2e-05, 2e-05],
            eager_s=0.004,
        ),
        seed=7,
        duration_s=1.5,
    )


def error_verdict() -> Verdict:
    message = "double raised ZeroDivisionError on call 1, line 6: division by zero"
    return Verdict.failure(
        "demo_print",
        text(message),
        error=ErrorInfo("ZeroDivisionError", "division by zero", line=6, col=5,
                        traceback='Traceback (your code only):\n  File "demo_print.py", line 6, in double\n'
                                  "    print(1 / 0)\nZeroDivisionError: division by zero",
                        phase="call 1"),
        seed=7,
    )


async def show_verdict(pilot, app: TrainerApp, verdict: Verdict, pane: str = "checks") -> None:
    """Put a hand-made verdict on screen through the same message a grading thread posts."""
    from jittrainer.app.messages import VerdictReady

    s = app.main_screen
    s.grade_state = GradeState(10_000, verdict.exercise, "grading")
    s.post_message(VerdictReady(10_000, verdict.exercise, verdict, timing_pending=False))
    await pilot.pause()
    s.panel.switch(pane)
    await pilot.pause()


def post_keys(app: TrainerApp, *keys: str) -> None:
    """Send keys to the app back-to-back, as a terminal does in a burst (tmux send-keys, ssh): all of them are in
    the app's queue before it reads the first. ``pilot.press`` waits for the app to go idle after each key, which
    hides any reordering. Names as for ``pilot.press``."""
    import unicodedata

    from textual import events
    from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key

    for key in keys:
        if len(key) == 1 and not key.isalnum():
            key = _character_to_key(key)
        original = REPLACED_KEYS.get(key, key)
        try:
            char = unicodedata.lookup(_get_unicode_name_from_key(original))
        except KeyError:
            char = key if len(key) == 1 else None
        event = events.Key(key, char)
        event.set_sender(app)
        app.post_message(event)  # what the driver does for each key it reads
