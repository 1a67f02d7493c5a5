"""Keys in the order they were typed, however fast they come (tmux ``send-keys``, ssh bursts, a fast typist).

Textual 8.2.8 loses that order in two ways (upstream: Textualize/textual#6605, PR #6631, both open):

1. A focused ``TextArea`` inserts a printable key in its own ``_on_key``, but a *bound* key (backspace, arrows,
   ctrl+k, F-keys) runs only after the event has bubbled, message by message, up to the App. A letter typed right
   after a backspace is inserted before the backspace runs: ``abc``, backspace, ``X`` gives ``abc``.
2. The App forwards every key to the widget that has the focus *when the App reads the key*. Keys typed right after
   one that opens a dialog (ctrl+g) or moves the focus (escape) were already forwarded to the editor, or reach the
   new screen before anything on it has the focus, and are lost or typed into the code.

The editor fixes (1) by running the bindings inline in its ``_on_key`` (``run_bindings_inline``), as PR #6631 does.
``KeyHold`` fixes (2): while an action moves the focus, the App holds new keys, the editor hands back the keys
already queued for it, and once the focus has landed they are replayed, oldest first, through the App's usual path.
A dialog that takes keys *claims* the hold when it opens and *settles* it once its input has the focus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

if TYPE_CHECKING:
    from textual.app import App

SAFETY_S = 3.0  # a hold nobody settles (a dialog that failed to open) ends on its own after this long ...
CLAIMED_S = 15.0  # ... or after this long while a screen that claimed it is still on its way (a loaded machine)


class KeyHold:
    """The App's hold on incoming keys. Single-threaded: everything here runs on the UI loop."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.holding = False
        self.claims = 0
        self.held: list[events.Key] = []  # reached the App during the hold
        self.diverted: list[events.Key] = []  # were already queued for a widget when the hold began: older
        self.head: list[events.Key] = []  # the key that began the hold, replayed where the focus lands: oldest
        self._source: Widget | None = None
        self._timer: Timer | None = None
        self._scheduled = False
        self._waited = 0.0

    def hold(self, source: Widget | None = None) -> None:
        """From now on the App keeps new keys; ``source`` (the widget whose key started it) hands back its queue."""
        if not self.holding:
            self.holding = True
            self._source = source
            self._waited = 0.0
            self._timer = self.app.set_timer(SAFETY_S, self._expire)

    def claim(self) -> None:
        """Someone (a dialog being opened) will ``settle`` once its own widget has the focus."""
        self.claims += 1

    def settle(self) -> None:
        self.claims = max(0, self.claims - 1)
        self.release()

    def release(self) -> None:
        """Replay the kept keys once every claim is settled. The replay goes behind the keys already queued for the
        source widget (it hands them back as it reads them) and behind the App's pending callbacks (a ``focus()``
        is one)."""
        if not self.holding or self.claims or self._scheduled:
            return
        self._scheduled = True
        source = self._source
        if source is not None and source.is_attached and source.call_later(self.app.call_later, self._replay):
            return
        self.app.call_later(self._replay)

    def keep(self, event: events.Key) -> bool:
        """The App read a key: keep it if a hold is on."""
        if self.holding:
            self.held.append(event)
            return True
        return False

    def take(self, event: events.Key) -> None:
        """The key that began the hold belongs where the focus is going (a letter typed in the panel): it is
        replayed first."""
        self.head.append(event)

    def divert(self, event: events.Key) -> None:
        """A widget got a key that was forwarded to it before the hold began."""
        self.diverted.append(event)

    def _expire(self) -> None:
        if not self.holding:
            return
        self._waited += SAFETY_S
        if self.claims and self._waited < CLAIMED_S:  # a screen is still mounting: it settles when it has the focus
            self._timer = self.app.set_timer(SAFETY_S, self._expire)
            return
        self.claims = 0
        self.release()

    async def _replay(self) -> None:
        if self.claims:  # a screen opened since the replay was scheduled: its settle replays
            self._scheduled = False
            return
        keys = [*self.head, *self.diverted, *self.held]
        self.head, self.diverted, self.held = [], [], []
        self.holding, self._scheduled, self._source = False, False, None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        for n, key in enumerate(keys):
            if self.holding:  # a replayed key started a new hold: the rest waits for it
                self.held[:0] = keys[n:]
                return
            await self.app.dispatch_held_key(events.Key(key.key, key.character))


async def run_bindings_inline(widget: Widget, event: events.Key, *, local_only: bool = False) -> bool:
    """Run what ``event.key`` is bound to now, as the App would once the key had bubbled up to it, but here, in the
    focused widget's ``_on_key``, so that it runs in typing order. The chain is the one Textual's App checks
    (the focused widget, its ancestors, the screen, the App, with the learner's keymap); priority bindings already
    ran before the key reached the widget. An action that moves the focus holds the keys itself (``KeyHold``), and
    so does every pushed or popped screen. With ``local_only``, only the widget's own bindings run here."""
    app = widget.app
    screen = widget.screen
    if screen.focused is not widget:
        return False
    for namespace, bindings in screen._modal_binding_chain:  # noqa: SLF001 - Textual's own order (pinned textual)
        if local_only and namespace is not widget:
            break
        for binding in bindings.key_to_bindings.get(event.key, ()):
            if binding.priority:
                continue
            if await app.run_action(binding.action, namespace):
                event.stop()
                event.prevent_default()
                return True
    return False


class OrderedInput(Input):
    """An ``Input`` whose own keys (backspace, arrows, enter) run in typing order, like the editor's. With
    ``hold_on_submit``, enter also holds the keys typed after it: they belong to whatever the focus moves to when
    the dialog closes."""

    def __init__(self, *args, hold_on_submit: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.hold_on_submit = hold_on_submit

    async def _on_key(self, event: events.Key) -> None:
        hold = getattr(self.app, "key_hold", None)
        if hold is not None and hold.holding:
            event.stop()
            event.prevent_default()
            hold.divert(event)
            return
        if not event.is_printable:
            if self.hold_on_submit and event.key == "enter" and hold is not None:
                hold.hold(self)
            if await run_bindings_inline(self, event, local_only=True):
                return
        await super()._on_key(event)
