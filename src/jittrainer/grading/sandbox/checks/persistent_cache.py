"""The persistent compilation cache, as JAX reports it: what each compile found on disk, and what it wrote.

JAX keeps no public record of the cache's work, only its log (``jax_compat.watch_persistent_cache_log``): a hit, a
miss, a write, a refusal to write with its reason ("took < 1.00 seconds to compile (0.41s)", "uses host
callbacks", an entry below the minimum size), and the folder the cache opened at, once per process (a later
``jax_compilation_cache_dir`` is not looked at again). Each line becomes a ``CacheEvent``, with the settings in
force when it was logged. The texts were checked on JAX 0.10 and 0.12 (``tests/test_persistent_cache.py``); a line
that matches none is ignored, so a new wording loses events, never misreads them.

A program's key hashes its StableHLO without locations, jaxlib's version, the backend, XLA flags, compile options
and the devices: ``program_text`` gives the text that two processes' keys are made from, and ``first_difference``
where two of them part.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import jax

from jittrainer.grading.sandbox.jax_compat import watch_persistent_cache_log

_NAME, _KEY = r"'(?P<program>[^']+)'", r"'(?P<key>[^']+)'"
_TEXTS = (
    ("hit", re.compile(rf"Persistent compilation cache hit for {_NAME} with key {_KEY}")),
    ("miss", re.compile(rf"PERSISTENT COMPILATION CACHE MISS for {_NAME} with key {_KEY}")),
    ("written", re.compile(rf"Writing (?P<program>\S+) to persistent compilation cache with key {_KEY}")),
    ("not_written", re.compile(rf"Not writing persistent cache entry (?:for {_NAME} |with key {_KEY} )?(?P<why>.*)",
                               re.DOTALL)),
    ("opened", re.compile(r"Initialized persistent compilation cache at (?P<folder>.+)")),
    ("timed", re.compile(rf"{_NAME} took at least \S+ seconds to compile")),  # long enough to be written
)
_SECONDS = re.compile(r"\((?P<s>\d+(?:\.\d+)?)s\)\s*$")
_MODULE = re.compile(r"^\s*(?:module @|HloModule )(?P<name>[\w.$-]+)", re.MULTILINE)


@dataclass(frozen=True)
class CacheEvent:
    """One thing the persistent cache did. ``program`` is JAX's name for the program ("jit_train_step"); ``why``
    JAX's reason for not writing, in its words; ``seconds`` the compile time JAX measured, where its line says it.
    ``cache_dir`` and ``min_compile_time`` are the settings in force when it was logged, ``folder`` where the cache
    had opened (None: not open)."""

    kind: str  # "hit" | "miss" | "written" | "not_written" | "timed" | "opened"
    program: str = ""
    key: str = ""
    why: str = ""
    seconds: float | None = None
    cache_dir: str | None = None
    min_compile_time: float = 1.0
    folder: str | None = None


def parse_cache_line(text: str, **settings) -> CacheEvent | None:
    """The event a line of JAX's persistent-cache log reports, or None (another line)."""
    for kind, pattern in _TEXTS:
        found = pattern.match(text)
        if found is None:
            continue
        parts = found.groupdict()
        key = parts.get("key") or ""
        program = parts.get("program") or (key.rsplit("-", 1)[0] if key else "")
        seconds = _SECONDS.search(text)
        if parts.get("folder"):
            settings = {**settings, "folder": parts["folder"].strip()}
        return CacheEvent(kind, program, key, (parts.get("why") or "").strip(),
                          float(seconds["s"]) if seconds else None, **settings)
    return None


def spy_persistent_cache(on_event: Callable[[CacheEvent], None]) -> Callable[[], None]:
    """From ``setup(g)``: ``on_event(event)`` for everything the persistent cache does in this process, each
    ``CacheEvent`` with the settings in force. Returns the undo."""
    opened: list[str] = []

    def seen(text: str) -> None:
        event = parse_cache_line(text, cache_dir=_setting("jax_compilation_cache_dir"),
                                 min_compile_time=float(_setting("jax_persistent_cache_min_compile_time_secs") or 0),
                                 folder=opened[0] if opened else None)
        if event is None:
            return
        if event.kind == "opened":
            opened.append(event.folder)
        on_event(event)

    return watch_persistent_cache_log(seen)


def _setting(name: str):
    try:
        return getattr(jax.config, name)
    except AttributeError:
        return None


def program_text(call) -> tuple[str, str]:
    """The program of a recorded jitted call (a ``JitCall``) as its persistent-cache key sees it: lowered again on
    the recorded arguments, StableHLO without locations; the compiled HLO for an ahead-of-time compiled call. The
    learner's Python runs again (mute the recorder around it). ``(text, "")``, or ``("", error)``."""
    try:
        if call.ahead_of_time:
            return call.fn.as_text(), ""
        args, kwargs = call.arguments()
        with call.context():
            return call.fn.lower(*args, **kwargs).as_text(), ""
    except Exception as exc:  # the learner's function, traced again: anything may happen
        return "", f"{type(exc).__name__}: {exc}"[:200]


def program_name(text: str) -> str:
    """JAX's name for a program, from its text ("jit_train_step"), the name its cache events carry; "" if none."""
    found = _MODULE.search(text)
    return found["name"] if found else ""


def first_difference(before: str, after: str) -> tuple[int, str, str] | None:
    """Where two programs' texts first part: (line number from 1, the line before, the line after; "" past the
    end), or None when they are the same."""
    a, b = before.splitlines(), after.splitlines()
    for i in range(max(len(a), len(b))):
        left, right = (a[i] if i < len(a) else ""), (b[i] if i < len(b) else "")
        if left.strip() != right.strip():
            return i + 1, left.strip(), right.strip()
    return None

