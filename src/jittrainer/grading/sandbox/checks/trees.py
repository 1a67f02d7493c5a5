"""The pytrees a jitted call received, in words: their structure as JAX writes it, the type of every leaf, which
leaf changed type between calls, and the array types seen."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import jax
import numpy as np

from jittrainer.grading.sandbox.checks.wording import shortened


def structure_text(call: Any) -> str:
    """The pytree structure a recorded jitted call received, as JAX writes it: {'aux': [*, *], 'pred': *, ...}
    (its one argument alone, when it had one and no keywords); at most 120 characters, "?" when unreadable."""
    try:
        if call.kwargs:
            tree = jax.tree_util.tree_structure((call.args, call.kwargs))
        else:
            tree = jax.tree_util.tree_structure(call.args[0] if len(call.args) == 1 else call.args)
    except Exception:
        return "?"
    text = str(tree)
    if text.startswith("PyTreeDef(") and text.endswith(")"):
        text = text[len("PyTreeDef("):-1]
    return text if len(text) <= 120 else text[:117] + "…"


def call_signature(call: Any) -> tuple:
    """What a jitted call's cache key is made of, roughly: the structure of its arguments and each leaf's shape and
    dtype (a type name for leaves without one)."""
    leaves, tree = jax.tree_util.tree_flatten((call.args, call.kwargs))
    return str(tree), tuple((np.shape(x), str(getattr(x, "dtype", type(x).__name__))) for x in leaves)


def shape_changes(signatures: Iterable[tuple], limit: int = 4) -> str:
    """The types the first leaf that changed took, in order ("float32[3, 8], float32[2, 8]"), from
    ``call_signature``s; "?" when none changed."""
    seen: dict[int, list[str]] = {}
    for _, leaves in signatures:
        for i, (shape, dtype) in enumerate(leaves):
            seen.setdefault(i, [])
            text = f"{dtype}{list(shape)}"
            if text not in seen[i]:
                seen[i].append(text)
    varying = [v for v in seen.values() if len(v) > 1]
    if not varying:
        return "?"
    return shortened(varying[0], limit)


def array_types(calls: Sequence[Any], limit: int = 3) -> str:
    """The most common array types among the arguments of recorded calls ("float32[64], int32[]"), "no arrays"
    when they held none."""
    found: Counter[str] = Counter()
    for call in calls:
        for leaf in jax.tree_util.tree_leaves((call.args, call.kwargs)):
            if hasattr(leaf, "shape") and hasattr(leaf, "dtype"):
                found[f"{leaf.dtype}{list(leaf.shape)}"] += 1
    return shortened([k for k, _ in found.most_common()], limit) if found else "no arrays"


def keep_argument_copies(spy: Any) -> None:
    """From ``setup(g)``: ``g.jit_spy`` keeps a copy of the NumPy arrays each jitted call receives, taken at the
    call (a file that refills one buffer for every call would otherwise leave only its last contents for reruns)."""
    record = spy.record

    def record_copies(*args: Any, **kwargs: Any) -> Any:
        call = record(*args, **kwargs)
        call.args = jax.tree_util.tree_map(_copy_numpy, call.args)
        call.kwargs = jax.tree_util.tree_map(_copy_numpy, call.kwargs)
        return call

    spy.record = record_copies


def _copy_numpy(leaf: Any) -> Any:
    return leaf.copy() if isinstance(leaf, np.ndarray) else leaf
