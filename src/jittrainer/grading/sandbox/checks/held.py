"""Where the learner's code holds a copy of a jitted call's arguments at the moment of the call: a copy kept alive
across a donated step holds the memory donation exists to save (exercise 29), and the place it sits in is what the
verdict can point at."""

from __future__ import annotations

import sys
from typing import Any

import jax
import numpy as np

from jittrainer.grading.sandbox.checks.values import is_tracer
from jittrainer.i18n.message import Msg, msg


def keep_held_copies(g: Any) -> None:
    """From ``setup(g)``: every call ``g.jit_spy`` records gets ``call.held``, a list of (argument, holder) for each
    floating-point ``jax.Array`` argument with at least one axis and each array (NumPy or JAX, not deleted) the
    learner's code then holds with its shape and values that is not the argument itself: the locals of the
    learner's functions running at that moment, its module-level names, and the items of lists, tuples and dicts
    held there. ``holder`` says where, in words."""
    record = g.jit_spy.record

    def record_held(*args: Any, **kwargs: Any) -> Any:
        call = record(*args, **kwargs)
        try:
            leaves = [leaf for leaf in jax.tree_util.tree_leaves((call.args, call.kwargs))
                      if isinstance(leaf, jax.Array) and not is_tracer(leaf)]
            call.held = _copies_held(g, leaves, sys._getframe(1))
        except Exception:  # the learner's objects may refuse anything: a hook never breaks their call
            call.held = []
        return call

    g.jit_spy.record = record_held


def _copies_held(g: Any, leaves: list, frame: Any) -> list[tuple[Any, Msg]]:
    values = [(leaf, np.array(leaf)) for leaf in leaves if leaf.ndim >= 1 and leaf.dtype.kind == "f"]
    if not values:
        return []
    places = [(msg("holder.global", "your module-level {name}", name=k), v)
              for k, v in (vars(g.module).items() if g.module is not None else ())]
    while frame is not None:
        if frame.f_code.co_filename == g.filename:
            places += [(msg("holder.local", "the local variable {name} of {function}", name=k,
                            function=frame.f_code.co_name), v) for k, v in frame.f_locals.items()]
        frame = frame.f_back
    held = []
    for holder, value in places:
        inner = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list | tuple) else []
        for v in [value, *inner]:
            if not isinstance(v, np.ndarray | jax.Array) or is_tracer(v) or v.dtype.kind != "f" \
                    or any(v is leaf for leaf in leaves) or (isinstance(v, jax.Array) and v.is_deleted()):
                continue
            same_shape = [(leaf, a) for leaf, a in values if v.shape == a.shape]
            if same_shape:
                host = np.asarray(v)  # read once, not once per same-shaped argument
                held += [(leaf, holder) for leaf, a in same_shape if np.array_equal(host, a)]
    return held
