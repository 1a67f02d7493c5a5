"""The desk in a real terminal (tmux), for what only a terminal shows (issue 37): a closed terminal does not lose
the last second of typing (items 4), and the exercise list opened over the editor keeps every Chinese character
(item 10: Textual's partial redraws go through the same division of lines that dropped them).

Run it alone with ``.venv/bin/python tests/e2e/tmux_desk.py``; tests/e2e/test_tmux_desk.py runs it under pytest.
"""

from __future__ import annotations

import contextlib
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from tmux_drive import REPO, Terminal, first_exercise

FOOTER = {"en": "^r Run", "zh": "^r 运行"}


@contextlib.contextmanager
def sized(width: int, height: int) -> Iterator[Terminal]:
    with tempfile.TemporaryDirectory(prefix="jt-e2e-home-") as tmp:
        term = Terminal(Path(tmp), width, height)
        try:
            yield term
        finally:
            term.close()


def open_in(term: Terminal, lang: str) -> None:
    term.launch(env={"JITTRAINER_LANG": lang})
    term.wait_for(FOOTER[lang], 30)
    time.sleep(0.3)


def hangup_keeps_the_typing(verbose: bool = False) -> None:
    """The terminal closes 0.1 s after the last key, before the autosave's half second: the typing is on disk."""
    ex = first_exercise()
    with sized(120, 40) as term:
        open_in(term, "en")
        term.keys("-l", "# typed as the window closed")
        term.wait_for("# typed as the window", 5)
        time.sleep(0.1)
        term.tmux("kill-session", "-t", term.session)  # what closing the window does: SIGHUP
        draft = term.draft(ex.id)
        end = time.monotonic() + 10
        while not draft.read_text().startswith("# typed as") and time.monotonic() < end:
            time.sleep(0.1)
        if verbose:
            print(draft.read_text()[:200])
        assert draft.read_text().startswith("# typed as the window closed"), draft.read_text()[:200]


def course_words(lang: str) -> list[str]:
    """Every exercise title and topic title in ``lang``, without spaces."""
    sys.path.insert(0, str(REPO / "src"))
    from jittrainer.course import load_course
    from jittrainer.i18n import set_language

    set_language(lang)
    course = load_course(REPO / "exercises")
    words = [ex.title_in(lang) for ex in course.exercises]
    words += [course.topic_title(ex.topic) for ex in course.exercises if ex.topic]
    return ["".join(w.split()) for w in words]


LIST_LINE = re.compile(r"^[┃│]?\s?(?:[○◐✔⊘] \d\d )?(?P<text>.*?)\s*[▎▐▌▍▏]")


def list_over_the_editor_keeps_every_character(width: int, height: int, verbose: bool = False) -> None:
    """F2 below 150 columns: every line of the list is a piece of a title or topic as the course spells it."""
    words = course_words("zh")
    with sized(width, height) as term:
        open_in(term, "zh")
        term.keys("F2")
        screen = term.wait_for("追踪期与运行期", 10)
        time.sleep(0.5)  # the partial redraws after the list opened
        screen = term.screen()
        checked, wrong = 0, []
        for line in screen.splitlines():
            found = LIST_LINE.match(line)
            if line.lstrip().startswith("^"):
                continue  # the footer
            text = "".join(found.group("text").split()).rstrip("▁▂▃▄▅▆▇█") if found else ""  # less the scrollbar
            if not re.search(r"[\u4e00-\u9fff]", text) or text.startswith("已通过"):
                continue  # the list's lines with Chinese in them: its titles and topics, not its progress
            checked += 1
            if not any(text in word for word in words):
                wrong.append(line)
        if verbose:
            print(screen)
        assert checked >= 8, screen
        assert not wrong, "\n".join(wrong) + "\n\n" + screen
        term.keys("C-q")
        term.wait_for("EXITED rc=0", 15)


if __name__ == "__main__":
    hangup_keeps_the_typing(verbose=True)
    for size in ((120, 40), (80, 24)):
        list_over_the_editor_keeps_every_character(*size, verbose=True)
    print("e2e desk: OK")
