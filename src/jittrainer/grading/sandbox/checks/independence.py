"""Whether two random masks were drawn independently, element by element: same-position agreement alone cannot see a
mask made from another by a shift (two independent masks keeping 75% agree on 0.75² + 0.25² = 62.5% of the
elements either way), so each mask is also held against the other shifted, reversed and transposed, and against
itself shifted.

Which dependencies are tested (the statement lists them): B against A element for element, reversed, transposed,
shifted by 1 to 4 places in flattened order and by 1 along each axis of a matrix; each mask against itself shifted
the same ways."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from jittrainer.i18n.message import Msg, msg

# At 128 elements (the fewest graded) the agreement of independent masks keeping 75% is 62.5% ± 4.3%: the band is
# more than 5 standard deviations wide on each side, so about 20 comparisons a call never fail a right fix by chance.
AGREE = (0.40, 0.85)


def _shifts(m: np.ndarray) -> Iterator[tuple[Msg, np.ndarray]]:
    for k in range(1, 5):
        yield msg("rel.places", "by {k} places", k=k), np.roll(m.reshape(-1), k).reshape(m.shape)
    if m.ndim == 2:
        for axis in (0, 1):
            yield msg("rel.axis", "by 1 along axis {axis}", axis=axis), np.roll(m, 1, axis=axis)


def related_masks(a: np.ndarray, b: np.ndarray) -> tuple[Msg, float] | None:
    """(what relates them, share of agreeing elements) for the first comparison whose agreement lies outside AGREE;
    None if none does (or the masks' shapes differ)."""
    if a.shape != b.shape:
        return None
    tests = [(msg("rel.same_place", "view B's mask matches view A's element for element"), b, a),
             (msg("rel.reversed", "view B's mask is view A's reversed"), b, a.reshape(-1)[::-1].reshape(a.shape))]
    if a.ndim == 2:
        tests.append((msg("rel.transposed", "view B's mask is view A's transposed"), b,
                      a.T.reshape(-1)[: a.size].reshape(a.shape)))
    for by, shifted in _shifts(a):
        tests.append((msg("rel.shifted", "view B's mask is view A's shifted {by}", by=by), b, shifted))
    for name, m in (("A", a), ("B", b)):
        for by, shifted in _shifts(m):
            tests.append((msg("rel.self", "view {name}'s mask repeats itself shifted {by}", name=name, by=by), m,
                          shifted))
    for how, m1, m2 in tests:
        agree = float(np.mean(m1 == m2))
        if not AGREE[0] <= agree <= AGREE[1]:
            return how, agree
    return None


def independence_failure(masks: Sequence[tuple[np.ndarray | None, np.ndarray | None]]) -> Msg | None:
    """What shows that the (view A, view B) masks of some call (from 1) were not drawn independently, or None."""
    found = next(((i, r) for i, (a, b) in enumerate(masks, 1)
                  if a is not None and b is not None and (r := related_masks(a, b)) is not None), None)
    if found is None:
        return None
    i, (how, agree) = found
    return msg("differ.related", "in call {i}, {how}: {agree:.0%} of the elements agree, where independent masks "
               "agree on about 62% (from {low:.0%} to {high:.0%} pass): the elements are not kept independently",
               i=i, how=how, agree=agree, low=AGREE[0], high=AGREE[1])
