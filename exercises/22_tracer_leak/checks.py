"""Checks for tracer_leak: the state goes in and comes out; nothing traced is kept outside the function.

Seven calls, counted, all under jax.checking_leaks(): streams A and B interleaved (A1 B1 A2 B2 A3 B3), each call
given the state its own stream's previous call returned, then A2 again from a copy of the state A1 returned. JAX's
leak checker must stay quiet (it raises ``Exception: Leaked trace …`` when a tracer outlives its trace), no
UnexpectedTracerError, and afterwards no module-level name of the file may hold a tracer. Each call must return
(new_state, y) with the state's structure, shapes and dtypes unchanged; each stream's running mean and count, and
y = x - mean, must be right; the seven calls compile once.
"""

from __future__ import annotations

import gc
import re
from dataclasses import dataclass, field

import jax
import numpy as np

from jittrainer.authoring import (at_line, count, describe_leaks_robustly, is_tracer, msg, one_compile, stored_numbers,
                                  tracers_in_module, type_name, type_of, typed_copy, when_nothing)

CHECKS = {
    "no_leak": "nothing computed in center is kept outside it (jax.checking_leaks, module-level names)",
    "runs": "center returns for every call",
    "returns_state": "center returns (new_state, y), the state as it came in",
    "values": "each stream's running mean, count and centred batch are right",
    "one_compile": "seven threaded calls compile once",
}

STATE_TIER = 2  # the hint tier on returning the new state instead of storing it
LEAK_PREFIX = "Leaked trace"
MODULE = "submission"  # the name the grader imports the learner's file under
PLAN = [("A", 0), ("B", 0), ("A", 1), ("B", 1), ("A", 2), ("B", 2), ("A", 1, "replay")]


# ------------------------------------------------------------------------------------------------ inputs


def draw_sizes(rng: np.random.Generator) -> tuple[int, int]:
    """(rows per batch, features): 1..16 rows and 1..8 features, the edges often."""
    rows = int(rng.choice([1, 16])) if rng.uniform() < 0.3 else int(rng.integers(2, 16))
    dim = int(rng.choice([1, 8])) if rng.uniform() < 0.3 else int(rng.integers(2, 8))
    return rows, dim


def draw_stream(rng: np.random.Generator, rows: int, dim: int, sign: float) -> list[np.ndarray]:
    """Three batches around a centre of its own (streams A and B sit on opposite sides of 0), drifting a little."""
    centre = sign * rng.uniform(2.0, 8.0, dim)
    return [(centre + rng.normal(0.0, 1.0, (rows, dim)) + step * rng.uniform(-1.0, 1.0, dim)).astype(np.float32)
            for step in range(3)]


def initial_state(dim: int) -> dict:
    return {"mean": np.zeros(dim, np.float32), "count": np.int32(0)}


def reference(batches: list[np.ndarray], k: int) -> tuple[np.ndarray, int]:
    """The running mean and count of a stream after its batches 0..k."""
    seen = np.concatenate([b.astype(np.float64) for b in batches[: k + 1]])
    return seen.mean(axis=0), seen.shape[0]


# ------------------------------------------------------------------------------------------------ threading


@dataclass
class Threading:
    """Runs a plan of calls, giving each call the state its stream's previous call returned."""

    center: object
    streams: dict[str, list[np.ndarray]]
    dim: int
    states: dict[tuple[str, int], object] = field(default_factory=dict)  # state returned by (stream, step)
    copies: dict[tuple[str, int], object] = field(default_factory=dict)  # NumPy copies of them, for the replay
    errors: list[BaseException] = field(default_factory=list)  # every exception a call raised, whole
    bad: list[object] = field(default_factory=list)  # what came back, when it was not (state, y)
    results: list[tuple] = field(default_factory=list)  # (state, y) of every call, as NumPy copies taken at once
    stored: dict[str, int] = field(default_factory=dict)  # numbers held by each module-level name before the calls

    def state_before(self, stream: str, step: int):
        # After a call that returned no usable state, its stream starts again (that window's results are not graded).
        state = self.states.get((stream, step - 1))
        return initial_state(self.dim) if state is None else state

    def __call__(self, stream: str, step: int, *replay):
        state = self.state_before(stream, step)
        if replay and step > 0 and (stream, step - 1) in self.copies:
            state = self.copies[(stream, step - 1)]  # a copy: the first use may have donated the original
        try:
            result = self.center(state, self.streams[stream][step])
        except BaseException as exc:
            self.errors.append(exc)
            raise
        if not (isinstance(result, (tuple, list)) and len(result) == 2):
            self.bad.append(result)
            return result
        copy, typed = typed_copy(result)
        self.results.append(copy)
        if not replay:
            self.states[(stream, step)] = result[0]
            self.copies[(stream, step)] = typed[0]
        return result


# ------------------------------------------------------------------------------------------------ grading


def setup(g):
    describe_leaks_robustly(freeze=True)  # grade() unfreezes


def grade(g):
    try:
        _grade(g)
    finally:
        gc.unfreeze()


def _grade(g):
    center = g.graded(params=2)
    rows, dim = draw_sizes(g.rng)
    streams = {"A": draw_stream(g.rng, rows, dim, 1.0), "B": draw_stream(g.rng, rows, dim, -1.0)}
    run = Threading(center, streams, dim)
    run.stored = stored_numbers(g.module, MODULE)
    with jax.checking_leaks():
        calls = g.calls(run, PLAN, name="center")
    if not check_leaks(g, run, calls):
        return
    g.check_ran("runs", calls, _error_advice, tier=STATE_TIER)
    if run.bad:
        report_bad_return(g, run.bad[0])
        return
    if not check_returned_state(g, run.results, dim):
        return
    check_values(g, run.results, streams)
    check_compiles(g, calls)


def _error_advice(error):
    if error.type == "UnexpectedTracerError":
        return msg("advice.unexpected", "keep nothing computed inside center in a global, a list or an attribute: "
                   "return the new state, {{\"mean\": mean, \"count\": count}}, together with the result")
    if error.type in ("KeyError", "TypeError", "IndexError"):
        return msg("advice.shape_of_state", "the state is a dict with \"mean\" (float32[D]) and \"count\" (int32[]); "
                   "center(state, x) returns (new_state, x - new_mean), and the next call gets that new_state")
    if error.type in ("ConcretizationTypeError", "TracerBoolConversionError", "TracerIntegerConversionError"):
        return msg("advice.no_python_value", "do the update with jax.numpy on the traced values; do not turn them "
                   "into Python numbers")
    return None


def _advice_return():
    return msg("advice.return_state", "compute the new state from the state argument and the batch only, and return "
               "it with the result, return {{\"mean\": mean, \"count\": count}}, x - mean; keep nothing in a global: "
               "the caller passes that state into the next call")


# ------------------------------------------------------------------------------------------------ leaks


_GLOBAL = re.compile(rf"is referred to by {MODULE}\.(?P<name>\w+)")


def _store_lines(g, name: str | None) -> list[int]:
    """Lines of center that store into ``name`` (or, without a name, into anything outside the function)."""
    if name:
        return g.lines_calling(rf"\b{re.escape(name)}\b\s*(\[[^\]]*\]\s*=(?!=)|\.\w+\s*=(?!=)|=(?!=)|\.(append|"
                               rf"extend|insert|update|setdefault|add)\s*\()", g.function_name)
    return g.lines_calling(r"\.(append|extend|insert|update|setdefault|add)\s*\(|\bglobal\b|\bnonlocal\b|"
                           r"\bself\.\w+\s*=(?!=)", g.function_name)


def check_leaks(g, run: Threading, calls) -> bool:
    """Report no_leak; False when a leak was found (the check failed, and grading stops there)."""

    def fail(observation):
        return g.failed("no_leak", observation, _advice_return(), tier=STATE_TIER)

    error = next((e for e in run.errors if str(e).startswith(LEAK_PREFIX)), None)
    if error is not None:
        text = str(error)
        first = text.splitlines()[0].strip()
        holder = _GLOBAL.search(text)
        name = holder["name"] if holder else None
        lines = _store_lines(g, name)
        call = calls.failed.index if calls.failed is not None else 1
        common = {"call": call, "jax": first}
        if name:
            observation = at_line(lines, msg(
                "leak.global_line", "jax.checking_leaks() stopped call {call}: JAX says \"{jax}\", and the leaked "
                "tracer is held by your module-level {name}. Line {line} stores a value computed inside center there "
                "while jit traces the function; it is a tracer, a placeholder that only exists during that trace, and "
                "the compiled program never runs that line again", name=name, **common), msg(
                "leak.global", "jax.checking_leaks() stopped call {call}: JAX says \"{jax}\", and the leaked tracer "
                "is held by your module-level {name}: a value computed inside center was kept there while jit traced "
                "it, a placeholder that only exists during that trace", name=name, **common))
        else:
            observation = at_line(lines, msg(
                "leak.line", "jax.checking_leaks() stopped call {call}: JAX says \"{jax}\". Line {line} keeps a value "
                "computed inside center outside the function (in a list, a dict or an attribute) while jit traces it; "
                "that value is a tracer, which only exists during the trace", **common), msg(
                "leak.other", "jax.checking_leaks() stopped call {call}: JAX says \"{jax}\": a value computed inside "
                "center was kept outside it while jit traced the function", **common))
        return fail(observation)
    stale = next((e for e in run.errors if type(e).__name__ == "UnexpectedTracerError"), None)
    if stale is not None:
        return fail(msg("leak.unexpected", "center raised UnexpectedTracerError: JAX says \"{jax}\". It used a "
                        "tracer kept from an earlier trace (a global, a list or an attribute filled while jit traced "
                        "center before), and such a tracer is dead once its trace ends",
                        jax=str(stale).splitlines()[0].strip()))
    if not calls.ok:
        return True
    found = tracers_in_module(g.module, MODULE)
    if found:
        return fail(msg("leak.kept", "after the calls, your module-level {name} holds a tracer: a value computed "
                        "inside center while jit traced it, kept outside the function", name=found[0]))
    grown = [name for name, n in stored_numbers(g.module, MODULE).items() if n > run.stored.get(name, 0)]
    if grown:
        return fail(msg("leak.stored", "after the calls, your module-level {name} holds more numbers than before "
                        "the first call: center (or a host callback it runs, such as jax.debug.callback) kept values "
                        "it computed outside the function, where the next call could read them instead of its state",
                        name=grown[0]))
    return g.passed("no_leak", msg("leak.ok", "{calls} under jax.checking_leaks(): no tracer escaped, and no "
                                   "module-level name holds one", calls=count("call", len(calls.records))))


# ------------------------------------------------------------------------------------------------ the returned state


def report_bad_return(g, result) -> None:
    if is_tracer(result) or hasattr(result, "shape"):
        observation = msg("state.only_y", "center returned {type} where (new_state, y) was expected: the new state "
                          "has to come back with the result, or the next call cannot continue from it",
                          type=type_name(result))
    else:
        observation = msg("state.not_pair", "center returned {type} where a pair (new_state, y) was expected",
                          type=type_name(result))
    g.failed("returns_state", observation, _advice_return(), tier=STATE_TIER)


def check_returned_state(g, results, dim: int) -> bool:
    want = {"mean": f"float32[{dim}]", "count": "int32[]"}
    for i, (state, _y) in enumerate(results, 1):
        if not isinstance(state, dict) or set(state) != {"mean", "count"}:
            keys = sorted(map(str, state)) if isinstance(state, dict) else None
            if keys is not None:
                observation = msg("state.keys", "call {i} returned a state with the keys {keys}; the state that came "
                                  "in has exactly \"mean\" and \"count\"", i=i, keys=keys)
            else:
                observation = msg("state.not_dict", "call {i} returned {type} as its state; the state that came in "
                                  "is a dict with \"mean\" and \"count\"", i=i, type=type_name(state))
            g.failed("returns_state", observation, _advice_return(), tier=STATE_TIER)
            return False
        for key in ("mean", "count"):
            got = type_of(state[key])
            if got != want[key]:
                g.failed("returns_state", msg(
                    "state.dtype", "call {i} returned {key} as {got}, but it came in as {want}: the next call would "
                    "see a new shape or dtype (and compile again); the state must come back as it went in",
                    i=i, key=key, got=got, want=want[key]), msg(
                    "advice.keep_dtype", "keep the state's dtypes: count is int32 (add the row count to it), mean is "
                    "float32[D]"), tier=STATE_TIER)
                return False
    g.passed("returns_state", msg("state.ok", "every call returned (new_state, y) with the state's keys, shapes "
                                  "and dtypes unchanged"))
    return True


# ------------------------------------------------------------------------------------------------ values


def check_values(g, results, streams) -> bool:
    for i, (entry, (state, y)) in enumerate(zip(PLAN, results), 1):
        stream, step = entry[0], entry[1]
        batches = streams[stream]
        mean, n = reference(batches, step)
        got_n = int(np.asarray(state["count"]))
        got_mean = np.asarray(state["mean"], np.float64)
        got_y = np.asarray(y, np.float64) if not is_tracer(y) else None
        want_y = batches[step].astype(np.float64) - mean
        common = {"i": i, "stream": stream, "batch": step + 1}
        if got_n != n:
            observation = _count_slip(common, got_n, n, step, batches[0].shape[0])
        elif not np.allclose(got_mean, mean, rtol=1e-4, atol=1e-4):
            observation = _mean_slip(common, got_mean, mean, streams, entry)
        elif got_y is None or got_y.shape != want_y.shape or not np.allclose(got_y, want_y, rtol=1e-4, atol=1e-4):
            observation = _y_slip(common, got_y, batches[step], mean, batches, step)
        else:
            continue
        return g.failed("values", observation, _advice_return(), tier=STATE_TIER)
    return g.passed("values", msg("values.ok", "streams A and B, interleaved, each kept its own running mean and "
                                  "count, and the replay of A's second call gave the same answer"))


def _count_slip(common, got_n, n, step, rows):
    if got_n == rows and step > 0:
        return msg("values.count_reset", "call {i} (stream {stream}, batch {batch}) returned count {got}, one batch's "
                   "rows, where its stream's count is {want}: the count did not continue from the state passed in",
                   got=got_n, want=n, **common)
    if got_n == n - rows:
        return msg("values.state_unchanged", "call {i} (stream {stream}, batch {batch}) returned count {got}, the "
                   "count it was given: the state came back as it went in, so the next call starts from the old "
                   "statistics", got=got_n, **common)
    if got_n == common["i"] * rows:
        return msg("values.count_shared", "call {i} (stream {stream}, batch {batch}) returned count {got}, the rows "
                   "of every call so far, both streams together, where its stream's count is {want}: the count came "
                   "from somewhere shared, not from the state passed in", got=got_n, want=n, **common)
    return msg("values.count", "call {i} (stream {stream}, batch {batch}) returned count {got} where its stream's "
               "count is {want}", got=got_n, want=n, **common)


def _mean_slip(common, got_mean, mean, streams, entry):
    stream, step = entry[0], entry[1]
    batches = streams[stream]
    own = batches[step].astype(np.float64).mean(axis=0)
    if step > 0 and np.allclose(got_mean, own, rtol=1e-4, atol=1e-4):
        return msg("values.mean_batch_only", "call {i} (stream {stream}, batch {batch}) returned the mean of this "
                   "batch alone: the running mean did not continue from the state passed in", **common)
    other = "B" if stream == "A" else "A"
    for k in range(3):
        mixed = np.concatenate([b.astype(np.float64) for b in streams[other][: k + 1]] +
                               [b.astype(np.float64) for b in batches[: step + 1]]).mean(axis=0)
        if np.allclose(got_mean, mixed, rtol=1e-4, atol=1e-4):
            return msg("values.mean_mixed", "call {i} (stream {stream}, batch {batch}) returned a running mean that "
                       "mixes in stream {other}'s batches: the statistics came from somewhere shared, not from the "
                       "state passed in", other=other, **common)
    if len(entry) > 2:
        return msg("values.replay", "call {i} replays stream {stream}'s batch {batch} from the same state as before, "
                   "but returned another running mean: the result depends on something besides the arguments",
                   **common)
    return msg("values.mean", "call {i} (stream {stream}, batch {batch}) returned a running mean that is off (first "
               "feature {got:.5g}, expected {want:.5g})", got=float(got_mean.reshape(-1)[0]),
               want=float(mean.reshape(-1)[0]), **common)


def _y_slip(common, got_y, x, mean, batches, step):
    if got_y is not None and got_y.shape == x.shape:
        if step > 0:
            previous, _ = reference(batches, step - 1)
            if np.allclose(got_y, x - previous, rtol=1e-4, atol=1e-4):
                return msg("values.y_old_mean", "call {i} (stream {stream}, batch {batch}) centred x with the running "
                           "mean from before this batch; y is x minus the updated mean", **common)
        if np.allclose(got_y, x - x.astype(np.float64).mean(axis=0), rtol=1e-4, atol=1e-4):
            return msg("values.y_batch_mean", "call {i} (stream {stream}, batch {batch}) centred x with this batch's "
                       "own mean; y is x minus the running mean", **common)
    return msg("values.y", "call {i} (stream {stream}, batch {batch}): y is not x minus the running mean", **common)


# ------------------------------------------------------------------------------------------------ compiles


def check_compiles(g, calls) -> None:
    one_compile(g, calls, msg("compiles.head", "{calls} with one shape of state and batch gave {compiles}; expected 1"),
                msg("compiles.ok", "{calls}, 1 compile", calls=count("call", len(PLAN))),
                [when_nothing(msg("compiles.none", "{head}: nothing was compiled"))],
                advice=msg("advice.traced_state", "keep every part of the state a traced array argument (no static "
                           "arguments), with the same dtypes call after call"), tier=STATE_TIER)
