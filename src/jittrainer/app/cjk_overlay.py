"""Chinese text inside a widget that lies over another one (the exercise list over the editor below 150 columns, a
notice over the panel) keeps every character.

Textual's compositor cuts each screen line at every place where *any* visible widget starts or ends, hidden ones
included, and divides every widget's line at those cuts (``Compositor._render_chops``). A double-width character
that straddles a cut is split by ``Segment.divide`` into two spaces. So the list's "○ 09 十六格的托盘：" lost 十 and 盘
where the panel's tab labels underneath start and end, and a topic heading lost its first character to the panel's
inner edge (upstream: Textualize/textual#6357, open). Docked beside the editor (150 columns and more) nothing lies
under the list, which is why 200×50 was fine.

``install`` replaces that division: a widget's line is divided only where the widget that owns the cells changes
(the topmost widget over each stretch between two cuts, from the full layout, whatever part of the screen is being
redrawn). Between two places where it changes, the widget's text is one piece, so nothing inside it is split; its
other stretches get an empty piece, so no widget underneath claims them. A partial redraw then needs to know where
each piece really ends, so ``render_partial_update`` is replaced too. Where one widget's edge really falls inside
another's wide character (the overlay's edge across the editor's text), the half outside is still a space, as any
terminal must show it.

Both are private methods of Textual 8.2.8 (pinned in pyproject.toml); if a release renames them nothing is patched
and tests/app/test_cjk_overlay.py fails.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from textual.strip import Strip

EMPTY = Strip([], 0)


def _owners(compositor: Any, cuts: list[list[int]]) -> list[dict[int, tuple]]:
    """Per screen line: the (region, clip) of the topmost widget over each stretch that starts at a cut."""
    owners: list[dict[int, tuple]] = [{} for _ in cuts]
    # visible_widgets is in paint order, front to back: the first one over a stretch owns it
    for region, clip in compositor.visible_widgets.values():
        shown = region.intersection(clip)
        if not shown.width or not shown.height:
            continue
        start, end = shown.column_span
        for y in shown.line_range:
            if y >= len(cuts):
                break
            line_cuts, line_owners = cuts[y], owners[y]
            i = bisect_left(line_cuts, start)
            while i < len(line_cuts) - 1 and line_cuts[i] < end:
                line_owners.setdefault(line_cuts[i], (region, clip))
                i += 1
    return owners


def _cached_owners(compositor: Any) -> list[dict[int, tuple]]:
    cuts = compositor.cuts  # a new list whenever the layout changes
    cached = getattr(compositor, "_jt_owners", None)
    if cached is None or cached[0] is not cuts:
        cached = (cuts, _owners(compositor, cuts))
        compositor._jt_owners = cached
    return cached[1]


def _render_chops(self, crop, is_rendered_line):
    cuts = self.cuts
    owners = _cached_owners(self)
    chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
    for region, clip, strips in self._get_renders(crop):
        shown = region.intersection(clip)
        render_x = shown.x
        first_cut, last_cut = shown.column_span
        me = (region, clip)
        for y, strip in zip(shown.line_range, strips):
            if not is_rendered_line(y):
                continue
            line, line_owners = chops[y], owners[y]
            stretch_cuts = [cut for cut in cuts[y] if last_cut >= cut >= first_cut]
            stretches = stretch_cuts[:-1]
            # A stretch is this widget's when nothing in front took it and it is the topmost one there
            mine = [line.get(cut) is None and line_owners.get(cut) == me for cut in stretches]
            # Divide only where ownership changes: a run of its own stretches is one piece
            starts = [i for i in range(len(stretches)) if i == 0 or mine[i] != mine[i - 1]]
            ends = [*starts[1:], len(stretches)]
            pieces = strip.divide([stretch_cuts[end] - render_x for end in ends])
            for start, end, piece in zip(starts, ends, pieces):
                if not mine[start]:
                    continue
                line[stretches[start]] = piece
                for i in range(start + 1, end):
                    line[stretches[i]] = EMPTY
    return chops


def _render_partial_update(self):
    from textual._compositor import ChopsUpdate, Region

    screen_region = self.size.region
    update_regions = self._dirty_regions.copy()
    self._dirty_regions.clear()
    if not update_regions:
        return None
    crop = Region.from_union(update_regions).intersection(screen_region)
    spans = list(self._regions_to_spans(update_regions))
    rendered = {y for y, _, _ in spans}
    chops = self._render_chops(crop, rendered.__contains__)
    # Where each piece ends: a piece that took several stretches ends past the next cut
    chop_ends = []
    for cut_set, line in zip(self.cuts, chops):
        ends = []
        for i, (x, strip) in enumerate(line.items()):
            natural = cut_set[i + 1]
            ends.append(max(natural, x + strip.cell_length) if strip is not None else natural)
        chop_ends.append(ends)
    return ChopsUpdate(chops, spans, chop_ends)


def install() -> bool:
    """Patch Textual's compositor (once). False where this Textual has no such methods to replace."""
    try:
        from textual._compositor import Compositor
    except ImportError:
        return False
    if getattr(Compositor, "_jt_cjk_overlay", False):
        return True
    if not all(callable(getattr(Compositor, name, None))
               for name in ("_render_chops", "render_partial_update", "_get_renders", "_regions_to_spans")):
        return False
    Compositor._render_chops = _render_chops
    Compositor.render_partial_update = _render_partial_update
    Compositor._jt_cjk_overlay = True
    return True
