"""Margins: every right file of an exercise (its solution and the alternative submissions that expect to pass) run on
the graded inputs of 200 seeds (``JITTRAINER_MARGIN_SEEDS`` to change it; the suite runs fewer, ``make margins`` 200), in ONE process and without the grader, each result held against the exercise's own
reference and tolerance. Prints, per file, the largest error as a share of the tolerance; ``test_margins.py`` wants
it at most 1/10, so that a right fix never fails by float32 rounding on a seed nobody graded.

    python tests/margins.py PREFIX   (e.g. 16): one JSON object {file name: largest share}
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SEEDS = int(os.environ.get("JITTRAINER_MARGIN_SEEDS", "200"))


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _jitted(fn):
    """The learner's function as the grader calls it under jit (as it is when already jitted or compiled)."""
    import jax

    from jittrainer.grading.sandbox.jax_compat import COMPILED_TYPE, JITTED_TYPE

    return fn if type(fn) in (JITTED_TYPE, COMPILED_TYPE) else jax.jit(fn)


Triple = tuple  # (got, want, tolerance): arrays of one shape, tolerance per element


def _share(got, want, tol) -> float:
    got = np.asarray(got, dtype=np.float64).reshape(np.shape(want))
    err, tol = np.abs(got - want), np.broadcast_to(tol, np.shape(want))
    # A tolerance of 0 (a zero vector's length must be exactly 0): no error is a share of 0, any error is infinite.
    share = np.divide(err, tol, out=np.where(err == 0, 0.0, np.inf), where=tol > 0)
    return float(np.max(share, initial=0.0))


# -- one function per exercise: (checks module, learner module, rng) -> the (got, want, tolerance) of one seed --------

def traced_if(c, m, rng) -> Iterator[Triple]:
    heat = _jitted(m.heat)
    for d in c.draw_deltas(rng):
        want = c.expected(d)
        yield heat(d), want, c.ATOL + c.RTOL * abs(want)


def cond_skips_branch(c, m, rng):
    finish = _jitted(m.finish)
    for _, x, w in c.draw_inputs(rng):
        want = c.simmer(x, w) if c.is_lumpy(x) else c.quick(x)
        yield finish(x, w), want, c.ATOL + c.RTOL * np.abs(want)


def unrolled_loop(c, m, rng):
    simulate = _jitted(m.simulate)
    counts, _, _ = c.draw_steps(rng)
    for n in counts:
        x = c.positions(rng)
        want = c.simulate(x, n)[0]
        yield simulate(x, n), want, c.ATOL + c.RTOL * np.abs(want)


def boolean_mask(c, m, rng):
    pick_good = _jitted(m.pick_good)
    for count in c.draw_counts(rng):
        x = c.scores(rng, count)
        want = np.concatenate([c.reference(x)[0], [c.reference(x)[1], c.reference(x)[2]]])
        kept, n, mean = pick_good(x)
        got = np.concatenate([np.asarray(kept, np.float64), [float(n), float(mean)]])
        yield got, want, c.ATOL + c.RTOL * np.abs(want)


def unhashable_static(c, m, rng):
    values = c.draw_values(rng)
    for label, windows in c.draw_calls(rng, values):
        x = c.batch(rng)
        want = c.expected(x, values[label])
        yield m.pyramid_pool(x, windows), want, c.RTOL * np.abs(want) + c.atol(x, values[label])


def static_hyperparameter(c, m, rng):
    step = _jitted(m.sgd_step)
    for lr in c.draw_lrs(rng):
        w, x, y = c.problem(rng)
        want = c.expected(w, x, y, lr)
        yield step(w, x, y, lr), want, c.ATOL + c.RTOL * np.abs(want)


def numpy_on_tracer(c, m, rng):
    weights = _jitted(m.attention_weights)
    for kind in c.KINDS:
        q, k = c.make_inputs(rng, kind)
        want = c.reference(q, k)
        yield weights(q, k), want, c.RTOL * np.abs(want) + c.atol(q, k)


def jit_method(c, m, rng):
    w, b = c.weights(rng), c.biases(rng)[0]
    layer = m.Layer(w.copy(), b)
    for _ in range(3):
        x = rng.normal(0.0, 1.0, (c.ROWS, c.IN)).astype(np.float32)
        want = c.expected(x, w, b)
        yield layer.apply(x), want, c.RTOL * np.abs(want) + c._atol(x, w, b)


def jit_in_loop(c, m, rng):
    for lr in c.learning_rates(rng):
        w0, batches, _ = c.make_run(rng, lr)
        want = c.reference(w0, batches, lr)
        yield m.train(w0.copy(), batches, lr), want, c.ATOL + c.RTOL * np.abs(want)


def weak_types(c, m, rng):
    w0, grads, kinds, values = c.make_run(rng)
    want = c.reference(w0, grads, values)
    got = m.run(w0.copy(), [g.copy() for g in grads], [c.make(k, v) for k, v in zip(kinds, values)])
    yield got, want, c.ATOL + c.RTOL * np.abs(want)


def nan_hunting(c, m, rng):
    entropy = _jitted(m.entropy)
    logits, _, _ = c.make_batch(rng)
    want = c.expected(logits)
    yield entropy(logits), want, c.ATOL + c.RTOL * np.abs(want)


def where_nan_gradient(c, m, rng):
    import jax

    lengths = _jitted(m.lengths)
    grad = jax.jit(jax.grad(lambda v, w: (w * m.lengths(v)).sum()))
    v, w, _ = c.make_call(rng)
    want = c.expected_lengths(v)
    yield lengths(v), want, c.V_RTOL * np.abs(want) + c.float32_atol(want)
    want = c.expected_grad(v, w)
    yield grad(v, w), want, c.G_ATOL + c.G_RTOL * np.abs(want)


def buffer_donation(c, m, rng):
    import jax

    for n, k in c.plan(rng):
        w, grads, lr, iterates, changes = c.make_case(rng, n, k)
        w_out, got_changes = m.train(jax.device_put(w), [jax.device_put(g) for g in grads], lr)
        sizes = c.magnitudes(w, grads, lr)
        yield w_out, iterates[-1], 1e-5 * np.abs(iterates[-1]) + c.float32_atol(sizes[-1])
        got = np.asarray([float(np.asarray(v)) for v in got_changes])
        atol = c.float32_atol([2 * sizes[i + 1].max() for i in range(k)])
        yield got, np.asarray(changes), 1e-5 * np.abs(changes) + atol


def float64_precision(c, m, rng):
    for start in c.starts(rng):
        t = c.make_times(rng, start)
        want = c.expected(t)
        yield m.gaps(t.copy()), want, np.full(want.shape, c.ATOL)


def optimizer_rebuilt(c, m, rng):
    params, batches, lrs = c.draw(rng)
    reported = []
    got = m.train({k: v.copy() for k, v in params.items()}, batches, lrs, lambda epoch, p: reported.append(p))
    for p, want in zip([*reported, got], [*c.adam(params, batches, lrs), c.adam(params, batches, lrs)[-1]]):
        for k in c.KEYS:
            yield p[k], want[k], c.ATOL + c.RTOL * np.abs(want[k])


def cache_growth(c, m, rng):
    params, tasks = c.draw(rng)
    lengths = [c._length(task) for task in tasks]
    for t in sorted({0, 1, lengths.index(1), lengths.index(c.MAX_LEN)}):  # a few tasks per seed: each compiles
        want = c.score(params, tasks[t])
        yield m.evaluate(params, tasks[t]), want, 1e-6 + 1e-4 * abs(want)

_CACHE_FOLDER: list[str] = []  # one persistent-cache folder for the whole run (a process opens its cache once)


def persistent_cache(c, m, rng):
    import atexit
    import shutil
    import tempfile

    if not _CACHE_FOLDER:
        _CACHE_FOLDER.append(tempfile.mkdtemp(prefix="margins-cache-"))
        atexit.register(shutil.rmtree, _CACHE_FOLDER[0], True)
    params, batches, lrs = c.draw(rng)
    for lr in lrs:  # both trials' rates
        got = m.train({k: v.copy() for k, v in params.items()}, batches, lr, _CACHE_FOLDER[0])
        want = c.sgd(params, batches, lr)
        for k in c.KEYS:
            yield got[k], want[k], c.ATOL + c.RTOL * np.abs(want[k])


def host_sync_metrics(c, m, rng):
    import jax

    for params, batches, every in c.make_runs(rng):
        metrics, want = c.reference(jax.jit, params, batches)
        logged = []
        out = m.train(jax.device_put(params), c.BatchLoader(batches, lambda number: None), every, lambda step, loss, acc: logged.append(
            (float(np.asarray(loss)), float(np.asarray(acc)))))
        means = np.array([metrics[k * every:(k + 1) * every].mean(axis=0) for k in range(len(batches) // every)])
        yield np.array(logged), means, c.RTOL * np.abs(means) + c.ATOL
        for name, value in want.items():
            yield np.asarray(out[name]), value, c.RTOL * np.abs(value) + c.ATOL


def jit_too_little(c, m, rng):
    import jax
    import optax

    params, batches = c.make_run(rng)
    want_losses, want_params = c.reference(jax.jit, params, batches)
    p = jax.device_put(params)
    s = optax.adam(c.LEARNING_RATE).init(p)
    losses = []
    for batch in batches:
        p, s, loss = m.train_step(p, s, *jax.device_put(batch))
        losses.append(float(np.asarray(loss)))
    yield np.array(losses), np.array(want_losses), c.RTOL * np.abs(want_losses) + c.ATOL
    for name, value in want_params.items():
        yield np.asarray(p[name]), value, c.RTOL * np.abs(value) + c.ATOL

def normalize_rows(c, m, rng):
    fn = _jitted(m.normalize_rows)
    features = int(rng.integers(2, 13))
    for rows in c.draw_rows(rng):
        xs = c.batch(rng, rows, features)
        want = c.normalized(xs, 1)
        yield fn(xs), want, c.atol(xs) + 1e-4 * np.abs(want)


def per_example_grads(c, m, rng):
    fn = _jitted(m.per_example_grads)
    d = int(rng.integers(2, 13))
    w = rng.normal(0.0, 1.0, d).astype(np.float32)
    for n in c.draw_sizes(rng, d):
        xs, ys = rng.normal(0.0, 2.0, (n, d)).astype(np.float32), rng.normal(0.0, 3.0, n).astype(np.float32)
        want = c.grads(w, xs, ys)
        yield fn(w, xs, ys), want, 1e-4 + 1e-4 * np.abs(want)


# A pack's exercise is named "<pack>/<nn>" (its folder under packs/, its alternatives under alt_submissions/<pack>/).

def grad_under_jit(c, m, rng):
    grads = _jitted(m.grads)  # jitted with its static activation already: _jitted keeps it as it is
    batch = c.draw_batch_size(rng)
    for activation in c.draw_activations(rng):
        params, x, y, clip, act = c.make_call(rng, batch, activation)
        want, _ = c.backward(params, x, y, act, clip)
        got = grads(params, x, y, clip, act)
        for name in want:
            yield got[name], want[name], c.ATOL * np.abs(want[name]).max() + c.RTOL * np.abs(want[name])


def remat_budget(c, m, rng):
    import jax

    step = jax.jit(jax.value_and_grad(m.loss))
    case = c.draw(rng)
    want_loss, want = c.reference(*case)
    loss, grads = step(*case)
    yield loss, want_loss, c.LOSS_RTOL * abs(want_loss)
    for name in want:
        yield grads[name], want[name], c.G_ATOL * np.abs(want[name]).max() + c.G_RTOL * np.abs(want[name])


def pytree_metadata(c, m, rng):
    predict = _jitted(m.predict)
    selections = c.draw_selections(rng)
    for label in c.draw_plan(rng):
        w, b, columns, x = c.make_inputs(rng, int(rng.integers(1, 65)), selections[label])
        want = c.expected(w, b, columns, x)
        yield predict(m.make_readout(w, b, columns), x), want, c.RTOL * np.abs(want) + c.atol(w, b, columns, x)

EXERCISES: dict[str, tuple[str, Callable]] = {
    "05": ("traced_if", traced_if), "06": ("cond_skips_branch", cond_skips_branch),
    "07": ("unrolled_loop", unrolled_loop), "09": ("boolean_mask", boolean_mask),
    "13": ("unhashable_static", unhashable_static), "14": ("static_hyperparameter", static_hyperparameter),
    "15": ("numpy_on_tracer", numpy_on_tracer), "16": ("jit_method", jit_method), "18": ("jit_in_loop", jit_in_loop),
    "19": ("weak_types", weak_types), "25": ("nan_hunting", nan_hunting),
    "26": ("where_nan_gradient", where_nan_gradient), "27": ("float64_precision", float64_precision),
    "29": ("buffer_donation", buffer_donation), "36": ("optimizer_rebuilt", optimizer_rebuilt),
    "37": ("cache_growth", cache_growth), "38": ("persistent_cache", persistent_cache),
    "29": ("buffer_donation", buffer_donation),
    "33": ("host_sync_metrics", host_sync_metrics), "34": ("jit_too_little", jit_too_little),
    "vmap_under_jit/01": ("normalize_rows", normalize_rows), "vmap_under_jit/02": ("per_example_grads", per_example_grads),
    "29": ("buffer_donation", buffer_donation), "42": ("grad_under_jit", grad_under_jit),
    "43": ("remat_budget", remat_budget), "44": ("pytree_metadata", pytree_metadata),
}


def _folder(prefix: str) -> Path:
    pack, _, number = prefix.rpartition("/")
    return next((ROOT / "packs" / pack if pack else ROOT / "exercises").glob(f"{number}_*"))


def right_files(prefix: str) -> list[Path]:
    exercise_id, pack = EXERCISES[prefix][0], prefix.rpartition("/")[0]
    alts = sorted((ROOT / "tests" / "alt_submissions" / pack / exercise_id).glob("*.py"))
    return [_folder(prefix) / "solution.py", *(p for p in alts if p.read_text().startswith("# expect: pass"))]


def main(prefix: str) -> None:
    exercise_id, run = EXERCISES[prefix]
    checks = _load(_folder(prefix) / "checks.py", f"margin_checks_{prefix.replace('/', '_')}")
    out = {}
    for path in right_files(prefix):
        learner = _load(path, f"margin_{exercise_id}_{path.stem}")
        out[path.name] = max((_share(*triple) for seed in range(SEEDS)
                              for triple in run(checks, learner, np.random.default_rng(seed))), default=0.0)
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
