"""What the learner's code prints, recorded per section ("import", "call 1", ...) with a size cap.

``jax.debug.print`` and callbacks write through Python's ``sys.stdout``, so a stream object installed as
``sys.stdout``/``sys.stderr`` in the worker sees them (on CPU the callback runs before the jitted call returns;
the toolkit still calls ``jax.effects_barrier()`` inside each section for other backends). A flood costs only a
counter once the cap is reached. Closing these streams does nothing: the learner cannot silence the grader.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from dataclasses import dataclass, field

SECTION_CAP = 16 * 1024  # characters kept per section, what the checks read
TOTAL_CAP = 64 * 1024  # characters shown in the verdict over all sections


@dataclass
class Section:
    label: str
    chunks: list[str] = field(default_factory=list)
    kept: int = 0
    dropped: int = 0

    @property
    def text(self) -> str:
        return "".join(self.chunks)


class OutputRecorder:
    def __init__(self, section_cap: int = SECTION_CAP, total_cap: int = TOTAL_CAP) -> None:
        self.section_cap = section_cap
        self.total_cap = total_cap
        self.sections: list[Section] = []
        self.current = self._open("grader")
        self.muted = False

    def _open(self, label: str) -> Section:
        for section in self.sections:
            if section.label == label:
                return section
        section = Section(label)
        self.sections.append(section)
        return section

    @contextlib.contextmanager
    def section(self, label: str) -> Iterator[Section]:
        previous = self.current
        self.current = self._open(label)
        try:
            yield self.current
        finally:
            self.current = previous

    def switch(self, label: str) -> None:
        """Write to section ``label`` from now on (a new one, unless a section has that label already)."""
        self.current = self._open(label)

    @contextlib.contextmanager
    def mute(self) -> Iterator[None]:
        """Discard output, e.g. while timing calls after the verdict is known."""
        previous, self.muted = self.muted, True
        try:
            yield
        finally:
            self.muted = previous

    def write(self, text: str) -> int:
        if self.muted or not text:
            return len(text)
        section = self.current
        room = self.section_cap - section.kept
        if room <= 0:
            section.dropped += len(text)
            return len(text)
        kept = text[:room]
        section.chunks.append(kept)
        section.kept += len(kept)
        if len(text) > room:
            section.dropped += len(text) - room
        return len(text)

    def nonempty_sections(self) -> list[Section]:
        return [s for s in self.sections if s.chunks or s.dropped]

    def combined(self) -> tuple[str, bool]:
        """All sections in order (headed when there is more than one) within the total cap; True if cut."""
        sections = self.nonempty_sections()
        parts, size, cut = [], 0, False
        for section in sections:
            text = section.text
            if len(sections) > 1:
                parts.append(f"── {section.label} ──\n")
            room = self.total_cap - size
            if len(text) > room:
                section_dropped = section.dropped + len(text) - max(room, 0)
                text = text[: max(room, 0)]
            else:
                section_dropped = section.dropped
            size += len(text)
            parts.append(text)
            if text and not text.endswith("\n"):
                parts.append("\n")
            if section_dropped:
                cut = True
                parts.append(f"[… {section_dropped:,} more characters of output not shown]\n")
        return "".join(parts), cut


class _BinaryProxy:
    """``sys.stdout.buffer`` stand-in: bytes are decoded and recorded like text."""

    def __init__(self, stream: CaptureStream) -> None:
        self._stream = stream

    def write(self, data: bytes) -> int:
        self._stream.write(bytes(data).decode("utf-8", "replace"))
        return len(data)

    def flush(self) -> None:
        pass


class CaptureStream(io.TextIOBase):
    def __init__(self, recorder: OutputRecorder, name: str, fileno: int) -> None:
        self._recorder = recorder
        self._name = name
        self._fileno = fileno
        self.buffer = _BinaryProxy(self)

    @property
    def name(self) -> str:
        return self._name

    @property
    def encoding(self) -> str:
        return "utf-8"

    @property
    def errors(self) -> str:
        return "replace"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        return self._recorder.write(text)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        # Learner code may close sys.stdout; the grader still needs it.
        pass

    @property
    def closed(self) -> bool:
        return False

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return self._fileno
