"""Checks for cond_skips_branch: finish(x, w) picks simmer (16 matrix products) when x is lumpy and quick otherwise.
Values over both paths and the boundary, one compile, and, read from the jaxpr, every matrix product inside a branch
of a cond whose other branch has none: jnp.where computes both results and throws one away."""

import numpy as np

from jittrainer.authoring import (
    compare,
    count,
    eqns_of,
    eqns_within,
    iter_eqns,
    msg,
    one_compile,
    refuse_fetching,
    when_eager,
)

CHECKS = {
    "runs": "finish runs under jax.jit",
    "in_program": "computes inside the compiled program, without a host callback",
    "skips_branch": "simmer's matrix products sit in a cond branch, skipped when x is not lumpy",
    "values": "returns simmer(x, w) when x is lumpy and quick(x) otherwise",
    "one_compile": "every call shares one compile",
}

ROWS, COLS = 128, 32
ROUNDS = 16
SMOOTH = 2  # smooth graded inputs, besides three lumpy ones and one at the boundary (largest |x| exactly 1.0)
MATMULS = ("dot_general",)
RTOL, ATOL = 1e-4, 1e-4
COND_TIER = 2  # the hint tier that names lax.cond / lax.switch
EDGE_TIER = 3  # the hint tier that spells out the call and the boundary


# -- inputs and the reference ---------------------------------------------------------------------------------

def mixing(rng: np.random.Generator) -> np.ndarray:
    return (rng.normal(0.0, 1.0, (ROWS, ROWS)) / np.sqrt(ROWS)).astype(np.float32)


def sauce(rng: np.random.Generator, kind: str, sign: float = 0.0) -> np.ndarray:
    """float32[128, 32]. lumpy: one to three values from 1.05 to 3 in size (all of sign ``sign``, or mixed for 0);
    smooth: every value below 0.95 in size; edge: smooth, with one value exactly +1.0 or -1.0 (not lumpy: the rule
    is a strict >)."""
    x = rng.uniform(-0.95, 0.95, (ROWS, COLS))
    picks = rng.choice(ROWS * COLS, size=int(rng.integers(1, 4)), replace=False)
    if kind == "lumpy":
        signs = np.full(picks.size, sign) if sign else rng.choice([-1.0, 1.0], picks.size)
        x.flat[picks] = signs * rng.uniform(1.05, 3.0, picks.size)
    elif kind == "edge":
        x.flat[picks[0]] = rng.choice([-1.0, 1.0])
    return x.astype(np.float32)


def draw_inputs(rng: np.random.Generator) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Three lumpy inputs (lumps all negative, all positive, mixed), two smooth ones and one at the boundary."""
    plan = [("lumpy", -1.0), ("lumpy", 1.0), ("lumpy", 0.0)] + [("smooth", 0.0)] * SMOOTH + [("edge", 0.0)]
    plan = [plan[i] for i in rng.permutation(len(plan))]
    return [(kind, sauce(rng, kind, sign), mixing(rng)) for kind, sign in plan]


def simmer(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    y, w = x.astype(np.float64), w.astype(np.float64)
    for _ in range(ROUNDS):
        y = y + 0.1 * np.tanh(w @ y)
    return y


def quick(x: np.ndarray) -> np.ndarray:
    return 0.5 * x.astype(np.float64)


def is_lumpy(x: np.ndarray) -> bool:
    return bool(np.max(np.abs(x)) > 1.0)


# -- runs -------------------------------------------------------------------------------------------------------

def cond_advice():
    return msg("advice.cond", "hand lax.cond the two functions, not their results: lax.cond(lumpy, simmer, "
               "lambda x, w: quick(x), x, w) traces both into branches of one cond and runs only the chosen one")


def explain_error(error):
    text = error.message
    if error.type == "TracerBoolConversionError":
        return msg("why.bool", "a Python if on lumpy needs its value while jit traces finish, and lumpy is a tracer "
                   "then: the choice has to be an operation in the program")
    if "branches must have equal output types" in text:
        return msg("why.cond_types", "lax.cond compiles both branches into one program, so they must return the "
                   "same shape and dtype")
    if error.type == "TypeError" and "positional argument" in text:
        return msg("why.operands", "lax.cond calls each branch function with the same operands, the ones given "
                   "after the two functions")
    return None


def make_advice(error):
    text = error.message
    if error.type == "TracerBoolConversionError":
        return cond_advice()
    if error.type == "TypeError" and "positional argument" in text:
        return msg("advice.operands", "make both branches take (x, w): simmer already does; wrap quick as "
                   "lambda x, w: quick(x)")
    if "branches must have equal output types" in text:
        return msg("advice.cond_types", "make both branches return a float32[128, 32] array, as simmer and quick do")
    return None


# -- skips_branch: the jaxpr --------------------------------------------------------------------------------------

def matmuls_in(jaxpr) -> int:
    return sum(eqn.primitive.name in MATMULS for eqn in iter_eqns(jaxpr))


def survey(closed):
    """(outside, around, conds): the matrix products outside every cond branch, with the primitives that hold each
    one ('scan', 'jit', …: empty at the top level); and for every cond holding one, its matrix products per branch."""
    outside, conds = [], []
    for eqn, holders in eqns_within(closed):
        if "cond" in holders:
            continue  # inside a branch, a product is skipped whenever another branch is taken
        name = eqn.primitive.name
        if name in MATMULS:
            outside.append(holders)
        per_branch = [matmuls_in(b) for b in eqn.params.get("branches", ())] if name == "cond" else []
        if any(per_branch):
            conds.append(per_branch)
    return outside, conds


def check_skips(g, inputs):
    closed = g.graded_jaxpr()
    if closed is None:
        g.failed("skips_branch", msg("skips.no_jaxpr", "the grader could not trace finish again to read its program"))
        return
    total = matmuls_in(closed)
    outside, conds = survey(closed)
    skipped = sum(1 for kind, *_ in inputs if kind != "lumpy")
    if total == 0:
        g.failed("skips_branch", msg("skips.no_matmul", "the program holds no matrix product at all: simmer's "
                                     "w @ y is missing, so there is no slow path to skip (the statement asks you to "
                                     "keep simmer as it is)"),
                 msg("advice.keep_simmer", "keep simmer as given and call it from a branch of lax.cond"), tier=COND_TIER)
        return
    if outside:
        where = g.lines_calling(r"\b(where|select|select_n)\s*\(", g.function_name)
        top = {e.primitive.name for e in eqns_of(closed)}
        holders = sorted({h for path in outside for h in path if h not in ("jit", "pjit")})
        if "while" in holders:
            g.failed("skips_branch", msg("skips.while", "simmer's matrix products (dot_general) sit in a while loop "
                                         "at the top level of the program, outside any cond branch: the statement "
                                         "asks for the slow path as a branch of lax.cond or lax.switch, chosen by "
                                         "the lumpy rule, not for a loop whose trip count changes"),
                     cond_advice(), tier=COND_TIER)
            return
        place = (msg("skips.place_loop", "in a {holders} at the top level of the program", holders=holders)
                 if holders else msg("skips.place_top", "at the top level of the program"))
        common = {"place": place, "calls": count("call", len(inputs)), "skipped": skipped}
        if "select_n" in top or where:
            line = msg("skips.at_line", " on line {line}", line=where[0]) if where else ""
            observation = msg(
                "skips.where",
                "simmer's matrix products (dot_general) run {place}, outside any cond, so they run on every call: "
                "the selection{line} (select_n in the jaxpr) only picks between two results after both were "
                "computed. Of the {calls}, {skipped} were not lumpy, and each one still ran simmer and threw its "
                "result away", line=line, **common)
        else:
            observation = msg(
                "skips.outside",
                "simmer's matrix products (dot_general) run {place}, outside any cond, so they run on every call, "
                "lumpy or not ({skipped} of the {calls} did not need them)", **common)
        g.failed("skips_branch", observation, cond_advice(), tier=COND_TIER)
        return
    busy = [per for per in conds if all(per)]
    if busy:
        g.failed("skips_branch", msg("skips.every_branch", "the matrix products are inside a cond, but every one of "
                                     "its {k} branches runs some ({counts}): whichever branch is taken, the slow "
                                     "work runs", k=len(busy[0]), counts=[str(c) for c in busy[0]]),
                 msg("advice.cheap_branch", "put simmer in one branch only; the other branch runs quick(x) and "
                     "nothing else"), tier=COND_TIER)
        return
    g.passed("skips_branch", msg("skips.ok", "simmer's matrix products sit in a cond branch and the other branch "
                                 "has none, so the {skipped} calls that were not lumpy skipped them", skipped=skipped))


# -- values -----------------------------------------------------------------------------------------------------

def check_values(g, inputs, results):
    matched, first_wrong = [], None
    for i, ((kind, x, w), result) in enumerate(zip(inputs, results), 1):
        want_slow = is_lumpy(x)
        ok, why = compare(result, simmer(x, w) if want_slow else quick(x), rtol=RTOL, atol=ATOL,
                          what=msg("what.call", "the result of call {i}", i=i))
        got = ("simmer" if compare(result, simmer(x, w), rtol=RTOL, atol=ATOL)[0]
               else "quick" if compare(result, quick(x), rtol=RTOL, atol=ATOL)[0] else None)
        matched.append((kind, x, got))
        if not ok and first_wrong is None:
            first_wrong = (i, kind, x, got, why)
    if first_wrong is None:
        g.passed("values", msg("values.ok", "all {n} results match ({lumpy} lumpy, {smooth} not)", n=len(inputs),
                               lumpy=sum(is_lumpy(x) for _, x, _ in inputs),
                               smooth=sum(not is_lumpy(x) for _, x, _ in inputs)))
        return
    advice = msg("advice.values", "return simmer(x, w) when the largest |x| is above 1.0 (strictly: exactly 1.0 is "
                 "not lumpy) and quick(x) otherwise; keep both functions as given")
    g.failed("values", _slip(matched) or _plain(first_wrong), advice, tier=EDGE_TIER)


def _plain(first_wrong):
    i, kind, x, got, why = first_wrong
    if got == "quick" and is_lumpy(x) and float(np.max(x)) <= 1.0:
        return msg("values.negative_lumps", "call {i} returned quick's result, but its largest |x| is {top:.4g}: its "
                   "lumps are all negative, and the rule looks at absolute values", i=i,
                   top=float(np.max(np.abs(x))))
    if got is not None:
        path = "simmer" if got == "simmer" else "quick"
        return msg("values.other_path", "call {i} returned {path}'s result, but its largest |x| is {top:.4g}, so it "
                   "needs {want}", i=i, path=path, top=float(np.max(np.abs(x))),
                   want="simmer" if is_lumpy(x) else "quick")
    return why


def _slip(matched):
    if any(got is None for *_, got in matched):
        return None
    slow = [got == "simmer" for *_, got in matched]
    tops = [float(np.max(np.abs(x))) for _, x, _ in matched]
    if slow == [t >= 1.0 for t in tops] and any(kind == "edge" for kind, *_ in matched):
        edge = next(t for (kind, *_), t in zip(matched, tops) if kind == "edge")
        return msg("values.edge", "every call followed the rule except the one whose largest |x| is exactly {top:.4g}: "
                   "it ran simmer, as >= would; the statement calls x lumpy only when the largest |x| is above 1.0",
                   top=edge)
    if slow == [t <= 1.0 for t in tops]:
        return msg("values.swapped", "every call took the other path: quick for lumpy x and simmer for the rest; "
                   "the two branches are swapped")
    if all(slow):
        return msg("values.always_simmer", "every call returned simmer's result, lumpy or not: the program never "
                   "takes the quick path")
    if not any(slow):
        return msg("values.always_quick", "every call returned quick's result, lumpy or not: the program never "
                   "takes the slow path")
    return None


# -- compiles ---------------------------------------------------------------------------------------------------

def check_compiles(g, calls):
    one_compile(g, calls, msg("compiles.head", "{calls} of one shape gave {compiles}; expected 1"),
                msg("compiles.ok", "compiled once; lumpy and smooth inputs ran the same program"),
                [when_eager(advice=msg("advice.inside", "keep all the work inside finish, which jit compiles once"),
                            tier=COND_TIER)],
                advice=msg("advice.once", "jit finish once, at module level"), tier=COND_TIER)


def grade(g):
    finish = g.graded(params=2)
    inputs = draw_inputs(g.rng)
    calls = g.calls(finish, [(x, w) for _, x, w in inputs])
    g.check_ran("runs", calls, make_advice, tier=COND_TIER, explain=explain_error)

    refuse_fetching(g, "in_program", msg(
        "in_program.callback", "finish gets its answer from Python through a host callback ({callbacks}) whose "
        "result the program uses: the work runs on the host, outside the compiled program"),
        msg("advice.in_program", "keep the work in JAX; {fix}", fix=cond_advice()), tier=COND_TIER,
        passed=msg("in_program.ok", "the work is done inside the compiled program"))

    check_skips(g, inputs)
    check_values(g, inputs, calls.results)
    check_compiles(g, calls)
