"""Numbers in words, the same in the CLI, the app's panes and the checks' messages. Pure Python (durations are
in the learner's language, through the package catalog)."""

from __future__ import annotations


def seconds(value: float | None) -> str:
    """'6.7 µs', '45.2 ms', '1.23 s', or '—' when nothing was measured."""
    if value is None:
        return "—"
    if value < 1e-3:
        return f"{value * 1e6:.1f} µs"
    if value < 1:
        return f"{value * 1e3:.1f} ms"
    return f"{value:.2f} s"


def plural(count: int, word: str, plural_word: str | None = None) -> str:
    """'1 compile', '3 compiles'."""
    return f"{count} {word if count == 1 else (plural_word or word + 's')}"


def duration(value: float) -> str:
    """A round's or a card's time, in the learner's language: '45 s', '2 min', '2 min 5 s' (zh: '2 分 5 秒')."""
    from jittrainer.i18n import _

    total = int(round(value))
    if total < 60:
        return _("{s} s").format(s=total)
    minutes, rest = divmod(total, 60)
    return _("{m} min {s} s").format(m=minutes, s=rest) if rest else _("{m} min").format(m=minutes)
