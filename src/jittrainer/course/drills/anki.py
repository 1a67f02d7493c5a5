"""The deck as an Anki package (``jittrainer drill --anki FILE``), written offline with genanki (the ``anki`` extra).

One note type per card kind, one deck per language, with ids derived from fixed names (not random): importing a new
export into Anki updates the notes it already has, since each note's GUID comes from the card's id (and the
language). Only the cards travel: the learner's FSRS state stays in jittrainer's progress file, and Anki schedules
the notes itself. Anki shows a card's choices in the file's order, as it cannot shuffle them per review.
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Sequence
from pathlib import Path

from jittrainer.course.drills.model import KINDS, Card, Deck
from jittrainer.i18n import _

FIELDS = ("CardId", "Question", "Code", "Choices", "Answer", "Explanation", "Topic", "Level", "Jax")
CSS = """.card { font-family: sans-serif; font-size: 18px; text-align: left; }
pre { background: #f4f4f4; padding: 8px; font-size: 15px; white-space: pre-wrap; }
.facts { color: #777; font-size: 14px; }
ol { padding-left: 1.5em; }"""
FRONT = ('<div class="facts">{{Topic}} · {{Level}}</div><p>{{Question}}</p>{{#Code}}<pre><code>{{Code}}</code></pre>'
         '{{/Code}}{{Choices}}')
BACK = '{{FrontSide}}<hr id="answer"><p><b>{{Answer}}</b></p><p>{{Explanation}}</p>'


class AnkiMissing(RuntimeError):
    """genanki is not installed: the message says how to install it."""


def stable_id(*names: str) -> int:
    """An id in Anki's range (2**30 to 2**31) from fixed names: the same deck and note types on every export."""
    digest = hashlib.sha256("/".join(("jittrainer", *names)).encode("utf-8")).digest()
    return (1 << 30) + int.from_bytes(digest[:4], "big") % (1 << 30)


def note_guid(card: Card, lang: str) -> str:
    import genanki

    return genanki.guid_for("jittrainer", lang, card.id)


def _model(kind: str, lang: str):
    import genanki

    return genanki.Model(stable_id("model", kind, lang), f"jittrainer {kind} ({lang})",
                         fields=[{"name": name} for name in FIELDS],
                         templates=[{"name": kind, "qfmt": FRONT, "afmt": BACK}], css=CSS)


def note_fields(card: Card, deck: Deck, lang: str) -> list[str]:
    """The note's fields, HTML-escaped: what the learner reads on the card in ``lang``."""
    text = card.text(lang)
    choices = ""
    if card.kind == "truefalse":
        choices = f"<ol><li>{html.escape(_('True'))}</li><li>{html.escape(_('False'))}</li></ol>"
    elif text.choices:
        choices = "<ol>" + "".join(f"<li>{html.escape(c)}</li>" for c in text.choices) + "</ol>"
    explanation = "<br><br>".join(html.escape(p.strip()) for p in text.explanation.strip().split("\n\n") if p.strip())
    return [card.id, html.escape(text.question.strip()), html.escape(card.code_in(lang).rstrip()), choices,
            html.escape(card.answer_text(lang)), explanation, html.escape(deck.topic_title(card.topic, lang)),
            html.escape(card.level_label), html.escape(card.jax)]


def write_apkg(deck: Deck, cards: Sequence[Card], path: Path, lang: str) -> int:
    """Write ``cards`` to ``path`` as one Anki deck in ``lang``; returns how many notes it holds."""
    try:
        import genanki
    except ImportError:
        raise AnkiMissing(_("the Anki export needs genanki: pip install 'jittrainer[anki]'")) from None
    name = "jittrainer 速练卡" if lang == "zh" else "jittrainer drills"
    anki_deck = genanki.Deck(stable_id("deck", lang), name)
    models = {kind: _model(kind, lang) for kind in KINDS}
    for card in cards:
        note = genanki.Note(model=models[card.kind], fields=note_fields(card, deck, lang), guid=note_guid(card, lang),
                            tags=[card.topic, card.level, card.kind])
        anki_deck.add_note(note)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    genanki.Package(anki_deck).write_to_file(str(tmp))
    tmp.replace(path)
    return len(cards)
