"""Inside the grading worker: run one drill card's proof and report what happened.

``run_proof(worker, job)`` answers a ``ProofJob`` (see ``jittrainer.grading.sandbox.worker``). It runs the
snippet once, in a fresh namespace that already holds ``jax``, ``jnp`` and ``np``, and returns raw facts; deciding
whether they prove the card's answer is ``jittrainer.course.drills.proofs``' job, on the host:

- ``stdout``: what the snippet printed (``jax.debug.print`` included: effects are flushed before reading it);
- ``traces`` / ``compiles``: per function name, from the worker's ``JaxWatch`` counting window, which is open for
  the whole run (JAX reports a trace as ``f`` and a compile as ``jit(f)``);
- ``raised``: the exception that escaped the snippet (type, the names of its classes, the first line), or None;
- ``answer``: the snippet's variable ``answer`` when it set one (true/false and spot-the-bug proofs);
- ``warnings``: the warnings it raised, as text.

Proof code may call ``traces("f")``, ``compiles("f")`` and ``compiles_total()`` (every compile, eager jnp
operations included) to read the counts so far, e.g. ``answer = compiles("f") == 1``. One worker runs one proof and exits, so no JAX cache crosses between cards.
"""

from __future__ import annotations

import builtins
import contextlib
import linecache
import math
import sys
import warnings
from typing import Any

from jittrainer.grading.protocol import ProofJob
from jittrainer.grading.sandbox.capture import CaptureStream, OutputRecorder

TEXT_CAP = 16 * 1024


def run_proof(worker: Any, job: ProofJob) -> dict[str, Any]:
    import jax
    import jax.numpy as jnp
    import numpy as np

    card, code, setup = job.card, job.code, job.setup
    filename = f"<drill {card}>"
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)

    out, err = OutputRecorder(TEXT_CAP, TEXT_CAP), OutputRecorder(TEXT_CAP, TEXT_CAP)
    stdout, stderr = CaptureStream(out, "<stdout>", 1), CaptureStream(err, "<stderr>", 2)
    raised: dict[str, Any] | None = None
    setup_raised: dict[str, Any] | None = None
    caught: list[warnings.WarningMessage] = []

    with worker.watch.counting() as window:

        def count(kind: str, name: str) -> int:
            names = {name} if kind == "trace" else {name, f"jit({name})"}
            return sum(1 for e in window.events if e.kind == kind and e.function in names)

        namespace: dict[str, Any] = {
            "__name__": "__drill__",
            "__builtins__": builtins,
            "jax": jax,
            "jnp": jnp,
            "np": np,
            "traces": lambda name: count("trace", name),
            "compiles": lambda name: count("compile", name),
            # every compile so far, eager jnp operations included: for questions that say "in total"
            "compiles_total": lambda: sum(1 for e in window.events if e.kind == "compile"),
        }
        saved = sys.stdout, sys.stderr
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                sys.stdout, sys.stderr = stdout, stderr
                try:
                    if setup:
                        exec(compile(setup, f"<drill {card} setup>", "exec", dont_inherit=True), namespace)
                except BaseException as exc:  # noqa: BLE001 - the premise does not hold: nothing to observe
                    setup_raised = _describe(exc)
                else:
                    try:
                        exec(compile(code, filename, "exec", dont_inherit=True), namespace)
                    except BaseException as exc:  # noqa: BLE001 - the exception is the observation
                        raised = _describe(exc)
                finally:
                    with contextlib.suppress(BaseException):
                        jax.effects_barrier()  # flush debug prints and callbacks before reading the output
        finally:
            sys.stdout, sys.stderr = saved
        traces = _by_function(window.events, "trace")
        compiles = _by_function(window.events, "compile")

    result: dict[str, Any] = {
        "card": card,
        "stdout": "".join(s.text for s in out.sections),
        "stderr": "".join(s.text for s in err.sections)[-4000:],
        "raised": raised,
        "setup_raised": setup_raised,
        "traces": traces,
        "compiles": compiles,
        "warnings": [f"{w.category.__name__}: {str(w.message).splitlines()[0] if str(w.message) else ''}"
                     for w in caught][:20],
        "jax_version": jax.__version__,
    }
    if "answer" in namespace:
        result["answer"] = _plain(namespace["answer"])
    return result


def _describe(exc: BaseException) -> dict[str, Any]:
    text = str(exc).strip()
    return {
        "type": type(exc).__name__,
        "mro": [cls.__name__ for cls in type(exc).__mro__ if cls is not object],
        "message": text.splitlines()[0][:300] if text else "",
    }


def _by_function(events: list[Any], kind: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for event in events:
        if event.kind == kind:
            counts[event.function] = counts.get(event.function, 0) + 1
    return counts


def _plain(value: Any, depth: int = 0) -> Any:
    """A JSON-safe copy of ``answer``: Python scalars as they are, NumPy/JAX scalars as Python ones."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if depth < 3 and isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    if depth < 3 and isinstance(value, dict):
        return {str(k): _plain(v, depth + 1) for k, v in value.items()}
    shape = getattr(value, "shape", None)
    if shape == () and hasattr(value, "item"):
        with contextlib.suppress(Exception):
            return _plain(value.item(), depth + 1)
    return repr(value)[:1000]
