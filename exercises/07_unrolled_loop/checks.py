"""Checks for unrolled_loop: simulate(x, steps) over step counts 0..200 drawn from the seed. The program's size, read
from jaxprs traced at two step counts, must not depend on the step count (a Python loop unrolls one copy of the body
per tick); values right for every count; at most one compile per distinct count, none for a repeat."""

import numpy as np

from jittrainer.authoring import (
    at_line,
    compare,
    count,
    eqns_of,
    is_compiled,
    iter_eqns,
    msg,
    one_compile,
    refuse_fetching,
    refuse_wrong_type,
    repeat_that_compiled,
    sub_jaxprs,
    when_eager,
)

CHECKS = {
    "runs": "simulate runs under jax.jit",
    "in_program": "simulates inside the compiled program, without a host callback",
    "program_size": "the program's size does not depend on the step count",
    "values": "returns the positions after steps ticks, for every step count",
    "compiles": "at most one compile per distinct step count, none for a repeat",
}

SIZE = 8
DT = 0.05
MAX_EQNS = 100  # a loop of the step body is ~15 equations; 100 leaves room for any reasonable program
LOOP_TIER = 2  # the hint tier that names fori_loop / scan / while_loop
EDGE_TIER = 3  # the hint tier that spells out the loop and its edges (0 steps)
RTOL, ATOL = 1e-4, 1e-5
EXAMPLES = (0, 1)  # the step counts statement.md shows


# -- inputs and the reference ---------------------------------------------------------------------------------

def draw_steps(rng: np.random.Generator) -> tuple[list[int], int, int]:
    """0 and 1 always, one count from 2..20, one from 21..120, one from 150..200, and one of those three again;
    random order, the repeat after its first appearance. Also returns the small and large counts."""
    small, middle, large = int(rng.integers(2, 21)), int(rng.integers(21, 121)), int(rng.integers(150, 201))
    counts = [0, 1, small, middle, large]
    counts = [counts[i] for i in rng.permutation(len(counts))]
    repeat = int(rng.choice([small, middle, large]))
    at = int(rng.integers(counts.index(repeat) + 1, len(counts) + 1))
    counts.insert(at, repeat)
    return counts, small, large


def positions(rng: np.random.Generator) -> np.ndarray:
    return rng.uniform(-2.0, 2.0, SIZE).astype(np.float32)


def simulate(x: np.ndarray, steps: int) -> tuple[np.ndarray, np.ndarray]:
    x, v = x.astype(np.float64), np.zeros(SIZE)
    for _ in range(steps):
        a = -x - 0.5 * x**3 - 0.3 * v
        v = v + DT * a
        x = x + DT * v
    return x, v


# -- runs -------------------------------------------------------------------------------------------------------

def loop_advice():
    return msg("advice.loop", "make the loop one operation of the program: lax.fori_loop(0, steps, lambda i, s: "
               "step(*s), (x, v)) traces the body once and works with steps traced or static (lax.scan with "
               "length=steps and lax.while_loop work too)")


def explain_error(error):
    text = error.message
    if "Non-hashable static arguments" in text and "Tracer" in text:
        return msg("why.inner_static", "steps reached a jitted function that treats it as static, but it was already "
                   "a tracer: simulate itself is not jitted, so the grader's jax.jit traced steps before your inner "
                   "function saw it")
    if error.type == "TracerBoolConversionError":
        return msg("why.bool", "a Python if or while on steps needs its value while tracing, and steps is traced "
                   "here")
    if error.type == "TracerIntegerConversionError":
        return msg("why.range", "range(steps) needs a Python int, and steps is traced here (an int32 tracer), so "
                   "a Python loop cannot be built from it")
    if error.type == "ConcretizationTypeError" and "length" in text:
        return msg("why.scan_length", "lax.scan's length must be a concrete int while tracing, and steps is traced "
                   "here")
    if error.type == "ConcretizationTypeError":
        return msg("why.concrete", "the value of steps was needed while tracing, and steps is traced here")
    if error.type == "TypeError" and "positional argument" in text:
        return msg("why.body_args", "the loop calls your body function with a fixed set of arguments: "
                   "fori_loop's body_fun(i, carry), scan's f(carry, x), while_loop's body_fun(carry)")
    if error.type == "TypeError" and ("carry" in text or "body_fun" in text):
        return msg("why.carry", "a loop's carry must keep the same structure, shapes and dtypes from one "
                   "iteration to the next")
    return None


def make_advice(error):
    text = error.message
    if "Non-hashable static arguments" in text and "Tracer" in text:
        return msg("advice.outer_static", "put the static marking on simulate itself (@partial(jax.jit, "
                   "static_argnames=\"steps\")), or keep steps traced and loop with lax.fori_loop")
    if error.type in ("TracerIntegerConversionError", "ConcretizationTypeError", "TracerBoolConversionError"):
        return loop_advice()
    if error.type == "TypeError" and "positional argument" in text:
        return msg("advice.body_args", "with fori_loop the body takes (i, state) and returns the new state: "
                   "lambda i, s: step(*s), with state = (x, v)")
    if error.type == "TypeError" and ("carry" in text or "body_fun" in text):
        return msg("advice.carry", "start the carry with arrays of the final dtype: v = jnp.zeros_like(x), not a "
                   "Python 0")
    return None


# -- program_size: two jaxprs -----------------------------------------------------------------------------------

def copies(eqn) -> int:
    """How many copies of its body an equation's program holds: a scan unrolled k times k (at most its length)."""
    if eqn.primitive.name != "scan":
        return 1
    length = int(eqn.params.get("length", 1) or 1)
    unroll = eqn.params.get("unroll", 1)
    return length if unroll is True else max(1, min(int(unroll or 1), length))


def size(jaxpr) -> int:
    """Equations, nested jaxprs included; a loop body counts once, a scan unrolled k times counts k times."""
    return sum(1 + copies(eqn) * sum(size(sub) for sub in sub_jaxprs(eqn)) for eqn in eqns_of(jaxpr))


def max_unroll(jaxpr) -> int:
    """The largest number of body copies any scan in the program is unrolled into (1: none unrolled)."""
    return max((copies(eqn) for eqn in iter_eqns(jaxpr)), default=1)


def traced(g, x, steps: int):
    """The graded program's jaxpr for ``steps`` (None when it cannot be traced)."""
    fn = g.graded_function
    try:
        if is_compiled(fn):
            return g.graded_jaxpr()
        with g.recorder.mute():  # tracing runs the learner's Python again
            return fn.trace(x, steps).jaxpr
    except Exception:
        return None


def compile_note(calls, counts, small: int, large: int):
    """' (here, compiling it took 0.91 s for 175 steps against 0.03 s for 2)' from the graded calls, or ''."""
    def seconds(steps):
        spent = [e.seconds for e in calls.window.events
                 if e.kind == "compile" and e.call is not None and counts[e.call - 1] == steps]
        return sum(spent) if spent else None

    big, little = seconds(large), seconds(small)
    if big is None or little is None:
        return ""
    return msg("size.compile_note", " (in the graded calls, compiling it took {big:.2f} s for {large} steps and "
               "{little:.2f} s for {small})", big=big, little=little, large=large, small=small)


def check_size(g, calls, counts, x, small: int, large: int):
    ja, jb = traced(g, x, small), traced(g, x, large)
    if ja is None or jb is None:
        return g.failed("program_size", msg("size.no_trace", "the grader could not trace simulate again with "
                                            "{small} and {large} steps to read its program", small=small, large=large))
    a, b = size(ja), size(jb)
    common = {"small": small, "large": large, "a": a, "b": b, "cap": MAX_EQNS}
    if a != b:
        lines = g.lines_calling(r"\bfor\b.*\bin\b|\bwhile\b", g.function_name)
        growth = (b - a) / (large - small)
        unrolled = max_unroll(jb)
        if growth >= 1 and unrolled >= large:
            observation = msg("size.unroll_param", "traced with {small} steps the program has {a} equations, with "
                              "{large} steps {b}: the loop is one operation, but it is unrolled {k} times (unroll=True "
                              "or a factor as large as the count), so its body is copied once per tick, as a Python "
                              "loop would", k=unrolled, **common)
        elif growth >= 1:
            common.update(per=growth, note=compile_note(calls, counts, small, large))
            observation = at_line(lines, msg(
                "size.unrolled_line", "traced with {small} steps the program has {a} equations, with {large} steps "
                "{b}: about {per:.0f} more for every tick, one copy of the loop body per iteration. The Python loop "
                "on line {line} runs while jit traces simulate, so it is unrolled into the program, and trace and "
                "compile time grow with it{note}", **common), msg(
                "size.unrolled", "traced with {small} steps the program has {a} equations, with {large} steps {b}: "
                "about {per:.0f} more for every tick, one copy of the loop body per iteration: the loop runs while "
                "jit traces simulate and is unrolled into the program{note}", **common))
        else:
            observation = msg("size.grows", "traced with {small} steps the program has {a} equations, with {large} "
                              "steps {b}: its size still depends on the step count", **common)
        return g.failed("program_size", observation, loop_advice(), tier=LOOP_TIER)
    if a > MAX_EQNS:
        return g.failed("program_size", msg("size.too_big", "the program has {a} equations for both {small} and "
                                            "{large} steps, more than {cap}: a loop written out to a fixed length "
                                            "(masked or not) is still unrolled; the body should appear once",
                                            **common), loop_advice(), tier=LOOP_TIER)
    g.passed("program_size", msg("size.ok", "{a} equations for {small} steps and for {large} steps: the loop body "
                                 "appears once", **common))


# -- values -----------------------------------------------------------------------------------------------------

def check_values(g, xs, counts, results):
    if refuse_wrong_type(g, "values", ((r, msg("what.steps", "the result for steps = {n}", n=n)) for n, r in
                         zip(counts, results)), (SIZE,), "float32", msg("advice.positions", "return the positions x "
                         "themselves, a float32[8] array"), tier=1):
        return None
    wrong = []
    for i, (x, n, result) in enumerate(zip(xs, counts, results), 1):
        ok, why = compare(result, simulate(x, n)[0], rtol=RTOL, atol=ATOL,
                          what=msg("what.steps", "the result for steps = {n}", n=n))
        if not ok:
            wrong.append((i, x, n, result, why))
    if not wrong:
        return g.passed("values", msg("values.ok", "all {k} results match (steps = {counts})", k=len(counts),
                                      counts=[str(n) for n in dict.fromkeys(counts)]))
    advice = msg("advice.values", "apply step exactly steps times, starting from v = 0: a loop from 0 to steps, "
                 "returning x (steps = 0 returns x as it came)")
    g.failed("values", _slip(wrong) or _plain(wrong, counts), advice, tier=EDGE_TIER)


def _near(result, want) -> bool:
    return compare(result, want, rtol=RTOL, atol=ATOL)[0]


def _plain(wrong, counts):
    i, x, n, result, why = wrong[0]
    right = sorted({c for c in counts} - {w[2] for w in wrong})
    if right and set(right) <= set(EXAMPLES):
        return msg("values.examples_only", "the results were right only for steps = {right}, the counts the "
                   "statement shows, and wrong for steps = {wrong} ({why}): the result must follow steps for any "
                   "count", right=[str(c) for c in right],
                   wrong=[str(c) for c in dict.fromkeys(w[2] for w in wrong)], why=why)
    if right:
        return msg("values.some_right", "{why}; for steps = {right} the results were right", why=why,
                   right=[str(c) for c in right])
    return why


def _distinct(ticks):
    return [str(n) for n in dict.fromkeys(n for n, *_ in ticks)]


def _slip(wrong):
    ticks = [(n, result, x) for _, x, n, result, _ in wrong]
    if all(n > 0 and _near(result, simulate(x, n - 1)[0]) for n, result, x in ticks):
        return msg("values.one_short", "for steps = {counts} it returned the positions after steps - 1 ticks: the loop "
                   "runs one tick too few (a loop from 1 to steps, or a count off by one)",
                   counts=_distinct(ticks))
    if all(_near(result, simulate(x, n + 1)[0]) for n, result, x in ticks):
        return msg("values.one_long", "for steps = {counts} it returned the positions after steps + 1 ticks: the loop "
                   "runs one tick too many", counts=_distinct(ticks))
    if all(_near(result, simulate(x, n)[1]) for n, result, x in ticks):
        return msg("values.velocity", "for steps = {counts} it returned the velocities, not the positions",
                   counts=_distinct(ticks))
    return None


# -- compiles ---------------------------------------------------------------------------------------------------

def check_compiles(g, calls, counts):
    distinct = list(dict.fromkeys(counts))
    once = msg("advice.once", "jit simulate once, at module level, so its cache lives across calls")
    repeat = repeat_that_compiled(calls, counts)
    if repeat is not None:
        call, earlier, reason = repeat
        return g.failed("compiles", msg("compiles.repeat", "call {call} repeated steps = {steps} from call {earlier} "
                                        "and compiled again instead of reusing that program ({reason})", call=call,
                                        steps=counts[call - 1], earlier=earlier, reason=reason), once, tier=LOOP_TIER)
    n = calls.compiles
    ok = (msg("compiles.ok_one", "compiled once; every step count ran the same program") if n == 1 else
          msg("compiles.ok_each", "{compiles} for {k} distinct step counts; the repeat reused its program",
              compiles=count("compile", n), k=len(distinct)))
    one_compile(g, calls, msg("compiles.head", "{calls} with {k} distinct step counts gave {compiles}; at most {k} "
                              "allowed", k=len(distinct)), ok,
                [when_eager(advice=msg("advice.inside", "keep all the work inside simulate, which jit compiles"),
                            tier=LOOP_TIER)], check="compiles", advice=once, tier=LOOP_TIER, at_most=len(distinct))


def grade(g):
    simulate_fn = g.graded(params=2)
    counts, small, large = draw_steps(g.rng)
    xs = [positions(g.rng) for _ in counts]
    probe = positions(g.rng)
    calls = g.calls(simulate_fn, list(zip(xs, counts)))
    g.check_ran("runs", calls, make_advice, tier=LOOP_TIER, explain=explain_error)

    refuse_fetching(g, "in_program", msg(
        "in_program.callback", "simulate gets its answer from Python through a host callback ({callbacks}) whose "
        "result the program uses: the loop runs on the host, outside the compiled program"),
        msg("advice.in_program", "keep the loop in JAX; {fix}", fix=loop_advice()), tier=LOOP_TIER,
        passed=msg("in_program.ok", "the loop runs inside the compiled program"))

    check_size(g, calls, counts, probe, small, large)
    check_values(g, xs, counts, calls.results)
    check_compiles(g, calls, counts)
