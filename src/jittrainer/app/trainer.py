"""The jittrainer app: the learner's settings and session, the theme and the language, and the screens. The work
happens on the main screen (``screens/main.py``); the app never grades and never imports jax.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from pathlib import Path

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.command import CommandPalette
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer

from jittrainer.app.cjk_overlay import install as install_cjk_overlay
from jittrainer.app.cjk_wrap import install as install_cjk_wrap
from jittrainer import paths
from jittrainer.app.commands import TrainerCommands
from jittrainer.app.grading import GradeDispatcher
from jittrainer.app.keyorder import KeyHold
from jittrainer.app.keys import key_rows, translate_bindings
from jittrainer.app.screens.confirm import ConfirmScreen
from jittrainer.app.screens.help import HelpScreen
from jittrainer.app.screens.main import MainScreen
from jittrainer.course.device_check import set_platform
from jittrainer.grading.host.device import choose
from jittrainer.i18n import N_, _
from jittrainer.session import Session
from jittrainer.session.progress import drain_notices
from jittrainer.session.settings import save_setting

EXIT_WHEN_READY = "JITTRAINER_EXIT_WHEN_READY"
READY_FILE = "JITTRAINER_READY_FILE"  # where `jittrainer bench` reads the first-frame time and memory


# The titles and descriptions of Textual's system commands (App.get_system_commands), for the extractor.
SYSTEM_WORDS = (
    N_("Theme"), N_("Change the current theme"), N_("Quit"), N_("Quit the application as soon as possible"),
    N_("Keys"), N_("Hide the keys and widget help panel"),
    N_("Show help for the focused widget and a summary of available keys"), N_("Minimize"),
    N_("Minimize the widget and restore to normal size"), N_("Maximize"), N_("Maximize the focused widget"),
    N_("Screenshot"), N_("Save an SVG 'screenshot' of the current screen"),
)


class TrainerApp(App[int], inherit_bindings=False):
    CSS_PATH = "app.tcss"
    TITLE = "jittrainer"
    COMMANDS = App.COMMANDS | {TrainerCommands}
    NOTIFICATION_TIMEOUT = 4  # a notice must not sit on the screen for long
    BINDINGS = [
        Binding("ctrl+q", "quit", N_("Quit"), tooltip=N_("Save the draft and quit"), priority=True, show=False,
                id="quit"),
        Binding("ctrl+c", "help_quit", show=False, system=True),
        # Textual adds this one itself unless the app has it; ours carries words the footer can translate.
        Binding("ctrl+p", "command_palette", N_("palette"), tooltip=N_("Open the command palette"), show=False,
                priority=True, id="command-palette"),
    ]

    def __init__(
        self,
        exercises_dir: str | Path | None = None,
        *,
        lang: str | None = None,
        packs: list[str | Path] | tuple[str | Path, ...] = (),
        prestart_workers: bool = True,
        grade_timing: bool = True,
        device: str | None = None,
        autosave_delay: float = 0.5,
        live_delay: float = 0.5,
        disk_poll_interval: float = 1.0,
    ) -> None:
        super().__init__()
        install_cjk_wrap()
        install_cjk_overlay()
        self.session = Session(exercises_dir, lang=lang, packs=packs)
        translate_bindings(self)
        self.settings = self.session.settings
        self.prestart_workers = prestart_workers
        self.warmed = False  # spare workers start after the first frame, not before
        choice = choose(device or self.settings.device)
        set_platform(choice.platform)  # which exercises' device checks this process can decide
        self.dispatcher = GradeDispatcher(spares=1 if prestart_workers else 0, timing=grade_timing, device=choice)
        self._screen_options = {"live_delay": live_delay, "autosave_delay": autosave_delay,
                                "disk_poll_interval": disk_poll_interval}
        self.key_hold = KeyHold(self)
        self.launched_at = time.monotonic()
        self.first_frame_at: float | None = None  # monotonic time of the first frame (the startup benchmark)

    def get_system_commands(self, screen: Screen):
        # Textual's own palette commands (Theme, Quit, Keys, ...) are English, outside our catalogs: SYSTEM_WORDS
        # puts their words in it.
        for command in super().get_system_commands(screen):
            yield command._replace(title=_(command.title), help=_(command.help))

    def action_command_palette(self) -> None:
        # Textual's palette opens with its own English placeholder, outside our catalogs.
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(CommandPalette(id="--command-palette", placeholder=_("Search for commands…")))

    # ------------------------------------------------------------------------------------------ start and stop

    def get_default_screen(self) -> Screen:
        return MainScreen(**self._screen_options)

    @property
    def main_screen(self) -> MainScreen:
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                return screen
        raise NoMatches("the main screen is not (or no longer) mounted")

    def on_mount(self) -> None:
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        else:
            self.settings.problems.append(_("unknown theme {theme!r} in the config; using {used}").format(
                theme=self.settings.theme, used=self.theme))
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        if self.settings.keymap:
            self.set_keymap(self.settings.keymap)
        self._catch_hangups()

    def _catch_hangups(self) -> None:
        # Closing the terminal sends SIGHUP (a `kill` SIGTERM): by default either ends the process at once, up to
        # the autosave's half second after the last keystroke. Not under Pilot, where pytest keeps its handlers.
        if self.is_headless:
            return
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGHUP, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, self.hang_up, signum)

    def hang_up(self, signum: int = signal.SIGHUP) -> None:
        """The terminal closed (SIGHUP) or the process was asked to stop (SIGTERM): the draft is written first,
        then the app ends as on ctrl+q (its worker processes stopped)."""
        try:
            self.main_screen.keeper.save_now()
        except NoMatches:
            pass
        self.exit(return_code=128 + int(signum))

    def on_ready(self) -> None:
        self.first_frame_at = time.monotonic()
        if os.environ.get(READY_FILE):
            _report_ready(Path(os.environ[READY_FILE]))
        if os.environ.get(EXIT_WHEN_READY) == "1":
            self.exit(0)
            return
        # The spare worker imports jax: on a small machine that competes with our own start-up, so it waits.
        self.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        self.warmed = True
        if self.prestart_workers:
            current = self.main_screen.current
            self.run_worker(lambda: self.dispatcher.warm_up(current), thread=True, group="warm-up",
                            exit_on_error=False)
        self.show_notices()

    def show_notices(self) -> None:
        """What the progress store and the settings had to tell (a file moved aside, where progress came back
        from), each once: at start-up and whenever progress is read again."""
        for notice in [*drain_notices(), *self.settings.problems, *self.session.course.notices]:
            self.notify(str(notice), title=_("Heads up"), severity="warning", timeout=8)
        self.settings.problems.clear()
        self.session.course.notices.clear()

    async def action_quit(self) -> None:
        try:
            saved = self.main_screen.keeper.save_now()
        except NoMatches:
            saved = True
        if saved:
            self.exit(0)
            return
        question = _("Your draft could not be saved. Quitting now loses your latest typing. Quit anyway?")
        self.push_screen(ConfirmScreen(_("Unsaved draft"), question, yes=_("Quit")),
                         lambda yes: self.exit(0) if yes else None)

    def on_unmount(self) -> None:
        try:
            self.main_screen.keeper.save_now()
        except NoMatches:
            pass
        self._release_job_control()
        self.dispatcher.shutdown()

    def _release_job_control(self) -> None:
        # Textual's Linux driver answers SIGCONT by starting application mode again, with a new (non-daemon) input
        # thread, and keeps that handler after the app has ended. A terminal that closes while the app is ending
        # sends SIGHUP and SIGCONT: the process then never exited, its input thread spinning on the dead terminal.
        # Once the app unmounts nothing is to be resumed, so both signals get their default action back.
        if self.is_headless:
            return
        for signum in (signal.SIGCONT, signal.SIGTSTP):
            with contextlib.suppress(ValueError, OSError):
                signal.signal(signum, signal.SIG_DFL)

    # ------------------------------------------------------------------------------------------ keys in order

    async def on_event(self, event: events.Event) -> None:
        # A key straight from the terminal waits while an action moves the focus (keyorder.py).
        if isinstance(event, events.Key) and not event.is_forwarded:
            if self.key_hold.keep(event):
                return
            if self.screen is self.main_screen and self.main_screen.type_into_editor(event):
                return
        await super().on_event(event)

    async def dispatch_held_key(self, event: events.Key) -> None:
        """A key the hold kept, now handled as if it had just arrived."""
        if self.screen is self.main_screen and self.main_screen.type_into_editor(event):
            return
        await super().on_event(event)

    def push_screen(self, screen, *args, **kwargs):
        # Keys typed right after the key that opens a screen belong to it: they wait until it has the focus.
        self.key_hold.hold()
        self.key_hold.claim()
        result = super().push_screen(screen, *args, **kwargs)
        self._settle_keys_on(self.screen)
        self.call_after_refresh(self.fit_footers)
        return result

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.fit_footers)

    def fit_footers(self) -> None:
        """Below 100 columns every screen's footer drops its padding and the palette's key (F1 lists ctrl+p), so
        that each key it lists fits whole at 80 (the drill's, the interview's as well as the main screen's). A
        screen under another one is fitted too: the terminal may be resized while it is hidden."""
        narrow = self.size.width < 100
        for screen in self.screen_stack:
            for footer in screen.query(Footer):
                footer.compact = narrow
                footer.show_command_palette = not narrow

    def pop_screen(self):
        self.key_hold.hold()
        self.key_hold.claim()
        result = super().pop_screen()
        self._settle_keys_on(self.screen)
        return result

    def _settle_keys_on(self, screen: Screen) -> None:
        # Behind the screen's own mount (and its ScreenResume, which restores the focus) in its queue.
        if not screen.call_later(self.key_hold.settle):
            self.key_hold.settle()

    # ------------------------------------------------------------------------------------------ settings

    def save_setting(self, key: str, value: str | bool) -> None:
        try:
            save_setting(key, value)
        except (OSError, ValueError) as exc:
            self.notify(_("Could not store this setting in {path}: {reason}").format(path=paths.config_path(),
                                                                                     reason=exc),
                        severity="warning", timeout=6)

    def _theme_changed(self, theme) -> None:
        try:
            self.main_screen.editor.use_dark(theme.dark)
        except NoMatches:
            pass  # the main screen is not mounted yet
        if theme.name != self.settings.theme:
            self.settings.theme = theme.name
            self.save_setting("theme", theme.name)

    def switch_language(self, lang: str) -> None:
        """Show everything in ``lang`` from now on (and remember it): the screen, the verdict already on it,
        the drafts created from now on."""
        self.session.set_language(lang)
        self.settings.language = self.session.lang
        self.save_setting("language", self.session.lang)
        translate_bindings(self)
        self.main_screen.localize()

    # ------------------------------------------------------------------------------------------ other screens

    def show_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(key_rows(self.settings.keymap), str(paths.config_path())))

    def start_drill(self) -> None:
        from jittrainer.app.drill import DrillScreen
        from jittrainer.course.drills.loader import load_drills

        self.push_screen(DrillScreen(load_drills(self.session.course.root / "drills"),
                                     exercise_name=self.exercise_name))

    def exercise_name(self, exercise_id: str) -> str:
        """An exercise as the list shows it, "09 The sixteen-slot tray", for texts inside the app."""
        try:
            ex = self.session.find(exercise_id)
        except LookupError:
            return exercise_id
        return f"{ex.number:02d} {self.session.title(ex)}"

    def start_interview(self) -> None:
        from jittrainer.app.interview import InterviewScreen

        screen = InterviewScreen(self.session)
        if not screen.plan.cards and not screen.plan.exercises:
            self.notify(_("Nothing to ask: this course has no drill cards or interview exercises."), timeout=4)
            return
        self.push_screen(screen)


def _report_ready(path: Path) -> None:
    """Wall-clock time of the first frame and this process's resident memory, for `jittrainer bench`."""
    import json

    from jittrainer.grading.host.procs import rss_bytes

    rss = rss_bytes(os.getpid()) or 0
    path.write_text(json.dumps({"ready_at": time.time(), "rss_mb": rss / 2**20}))
