"""Checks for black_box_print: three calls, one shape; one compile; each call prints its own mean at run time."""

import numpy as np

from jittrainer.core.toolkit import compare, numbers_in, plural

CHECKS = {
    "runs": "normalize runs under jax.jit",
    "values": "returns (x - mean) / std",
    "one_compile": "three calls of one shape compile once",
    "prints_each_call": "every call prints its own mean, at run time",
}

SIZE = 16
CALLS = 3
MEAN_TOLERANCE = 0.01  # any format that keeps two decimals passes
GAP = 0.05  # no other number a call might print (an element, a z-score, the std) lies this close to the mean


def batch(rng: np.random.Generator) -> np.ndarray:
    """float32[16] whose mean is far from 0, from integers, and from every other plausible printed number."""
    while True:
        loc = rng.choice([-1.0, 1.0]) * rng.uniform(3.0, 9.0)
        x = rng.normal(loc, rng.uniform(0.5, 2.0), SIZE).astype(np.float32)
        mean = float(x.astype(np.float64).mean())
        z = (x - mean) / x.std()
        others = np.concatenate([x, z, [x.std(), round(mean)]])
        if np.min(np.abs(others - mean)) > GAP:
            return x


def expected(x: np.ndarray) -> np.ndarray:
    x64 = x.astype(np.float64)
    return (x64 - x64.mean()) / x64.std()


def advice(error) -> str:
    if error.type in ("ConcretizationTypeError", "TracerArrayConversionError", "TracerBoolConversionError"):
        return "Under jit, mean is a tracer with no value yet: float(), .item() and NumPy cannot read it. Print it with jax.debug.print instead"
    return ""


def grade(g):
    normalize = g.graded(params=1)
    xs = [batch(g.rng) for _ in range(CALLS)]
    calls = g.calls(normalize, [(x,) for x in xs])
    g.check_ran("runs", calls, advice=advice)

    for i, (x, result) in enumerate(zip(xs, calls.results), 1):
        ok, why = compare(result, expected(x), rtol=1e-4, atol=1e-4, what=f"the result of call {i}")
        if not ok:
            g.check("values", False, why)
            break
    else:
        g.check("values", True, passed=f"all {CALLS} results match")

    g.check(
        "one_compile",
        calls.compiles == 1,
        f"{CALLS} calls with one shape gave {plural(calls.compiles, 'compile')}; expected 1"
        + (f" ({calls.why_compiled()})" if calls.compiles > 1 else ""),
        passed="compiled once, then reused",
    )

    means = [float(x.astype(np.float64).mean()) for x in xs]
    shown = [any(abs(v - m) <= MEAN_TOLERANCE for v in numbers_in(out)) for out, m in zip(calls.outputs, means)]
    if all(shown):
        g.check("prints_each_call", True, passed="each call printed its own mean")
        return
    lines = [len([ln for ln in out.splitlines() if ln.strip()]) for out in calls.outputs]
    total = sum(lines)
    everything = "".join(calls.outputs)
    if all("Tracer" in out for out in calls.outputs):
        message = (
            "every call printed a tracer's text instead of the mean's value: the line was formatted while "
            "tracing (an f-string or str() of a traced value). Let jax.debug.print fill a placeholder at run "
            "time: jax.debug.print(\"mean={m}\", m=mean)"
        )
    elif "Tracer" in everything or (lines[0] and not any(lines[1:])):
        message = (
            f"normalize printed {plural(total, 'line')} over {CALLS} calls (the print ran once, while tracing"
            + (", and showed a tracer, not a number)" if "Tracer" in everything else ")")
            + "; every call must print its own mean at run time"
        )
    elif total == 0:
        message = f"normalize printed nothing over {CALLS} calls; every call must print its mean"
        if "pure_callback" in g.source:
            message += (
                " (a pure_callback whose result is unused is removed by JAX as dead code: print with "
                "jax.debug.print or jax.debug.callback)"
            )
    else:
        i = shown.index(False)
        text = calls.outputs[i].strip().splitlines()
        sample = text[0][:80] if text else ""
        message = (
            f"call {i + 1} printed {plural(lines[i], 'line')}"
            + (f" ({sample!r})" if sample else "")
            + f" but none shows that call's mean, {means[i]:.4f}"
        )
    g.check("prints_each_call", False, message)
