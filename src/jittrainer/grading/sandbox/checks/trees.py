"""The pytrees a jitted call received, in words: their structure as JAX writes it, the type of every leaf, which
leaf changed type between calls, and the array types seen; and whether a registered class's metadata keeps JAX's
contract (hashable, equal by value)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import jax
import numpy as np

from jittrainer.grading.sandbox.checks.values import type_name
from jittrainer.grading.sandbox.checks.wording import shortened
from jittrainer.grading.sandbox.jax_compat import node_metadata


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


@dataclass(frozen=True)
class MetadataProblem:
    """Why two pytrees built from equal values would not share jit's cache entry, or break JAX's contract for
    metadata: ``kind`` is "unhashable" (hash() raised), "ambiguous" (== raised, or gave something that is not a
    bool: a NumPy array), "unequal" (== said False: compared by identity, say) or "hash_differs" (equal, yet hashed
    differently). ``node`` names the registered class, ``value`` the offending metadata value's type, in words ("a
    list", a message that translates)."""

    kind: str
    node: str
    value: Any
    error: str = ""  # what hash() or == raised, "TypeError: unhashable type: 'list'"


def metadata_problem(a: Any, b: Any) -> MetadataProblem | None:
    """Compare the metadata of two pytrees built from equal values (``register_dataclass``'s meta fields,
    ``register_pytree_node``'s aux data; ``jax_compat.node_metadata``), node by node, value by value. JAX's docs
    require metadata to be hashable with equality by value: jit compares a call's tree structure, metadata
    included, with the ones it compiled for. None when every value hashes, compares equal and hashes alike (and
    when there is no metadata at all)."""
    pairs = list(zip(node_metadata(a), node_metadata(b)))
    for (node, first), (_, second) in pairs:
        values = zip(first, second) if isinstance(first, tuple) and isinstance(second, tuple) else [(first, second)]
        for x, y in values:
            problem = _value_problem(x, y)
            if problem is not None:
                kind, error = problem
                return MetadataProblem(kind, node.__name__, type_name(x), error)
    return None


def _value_problem(x: Any, y: Any) -> tuple[str, str] | None:
    try:
        hx, hy = hash(x), hash(y)
    except Exception as exc:  # the learner's __hash__: anything may be raised
        return "unhashable", f"{type(exc).__name__}: {exc}"[:200]
    try:
        same = x == y
    except Exception as exc:
        return "ambiguous", f"{type(exc).__name__}: {exc}"[:200]
    if not isinstance(same, (bool, np.bool_)):
        return "ambiguous", ""
    if not same:
        return "unequal", ""
    return None if hx == hy else ("hash_differs", "")
