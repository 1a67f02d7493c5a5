"""The graded inputs, drawn in plain NumPy over 10,000 seeds, without a worker: every case a statement promises (and a
check exists for) appears in every draw, never by chance. Each exercise's own generators are called, as its
``grade`` calls them; the assertions are the statement's words. The example pack is held to the same bar."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache

import numpy as np
import pytest

from helpers import EXERCISES, REPO

SEEDS = range(10_000)


@cache
def checks(prefix: str):
    """An exercise's checks.py, imported as a plain module (it imports only jittrainer.authoring); a pack's exercise
    is named "<pack>/<nn>"."""
    pack, _, number = prefix.rpartition("/")
    path = next((REPO / "packs" / pack if pack else EXERCISES).glob(f"{number}_*")) / "checks.py"
    spec = importlib.util.spec_from_file_location(f"draws_{pack}_{path.parent.name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def every_seed(check):
    for seed in SEEDS:
        check(np.random.default_rng(seed))


def test_traced_if_zero_and_both_signs_with_a_tiny_one():
    m = checks("05")

    def check(rng):
        d = m.draw_deltas(rng)
        pos, neg = [v for v in d if v > 0], [v for v in d if v < 0]
        assert d.count(0.0) == 1 and len(pos) == len(neg) == 3
        assert min(pos) < 0.01 and max(neg) > -0.01 and all(1e-3 <= abs(v) <= 50 for v in pos + neg)

    every_seed(check)


def test_cond_skips_branch_lumpy_smooth_and_exactly_one():
    m = checks("06")

    def check(rng):
        plan = [("lumpy", -1.0), ("lumpy", 1.0), ("lumpy", 0.0)] + [("smooth", 0.0)] * m.SMOOTH + [("edge", 0.0)]
        tops = {kind: [] for kind in ("lumpy", "smooth", "edge")}
        for kind, sign in plan:
            x = m.sauce(rng, kind, sign)
            tops[kind].append(float(np.max(np.abs(x))))
        assert len(tops["lumpy"]) == 3 and all(t >= 1.05 for t in tops["lumpy"])
        assert len(tops["smooth"]) == 2 and all(t < 0.95 for t in tops["smooth"])
        assert tops["edge"] == [1.0]

    for seed in range(2_000):  # each input is 4,096 values: 2,000 seeds are 25 million draws
        check(np.random.default_rng(seed))


def test_unrolled_loop_step_counts():
    m = checks("07")

    def check(rng):
        counts, small, large = m.draw_steps(rng)
        assert len(counts) == 6 and 0 in counts and 1 in counts
        assert 2 <= small <= 20 and 150 <= large <= 200 and any(21 <= c <= 120 for c in counts)
        repeat = next(c for c in counts if counts.count(c) == 2)
        assert repeat in (small, large) or 21 <= repeat <= 120
        assert len(set(counts)) == 5

    every_seed(check)


def test_boolean_mask_counts_and_zeros():
    m = checks("09")

    def check(rng):
        counts = m.draw_counts(rng)
        assert {0, 16} <= set(counts) and (1 in counts or 15 in counts) and len(set(counts)) == 7
        assert sum(2 <= c <= 14 for c in counts) == 4
        x = m.scores(rng, counts[0])
        assert int((x > 0).sum()) == counts[0] and (counts[0] == 16 or 1 <= int((x == 0).sum()) <= 3)

    every_seed(check)


def test_inplace_update_edges_and_a_triple():
    m = checks("10")

    def check(rng):
        n = m.draw_n(rng)
        _, items, deltas = m.movements(rng, n)
        assert 0 in items and n - 1 in items and np.bincount(items).max() >= 3
        assert np.all((np.abs(deltas) >= 0.5) & (np.abs(deltas) <= 9.5))

    every_seed(check)


def test_out_of_bounds_dish_numbers():
    m = checks("11")

    def check(rng):
        n = m.draw_n(rng)
        d = m.dish_numbers(rng, n)
        assert {0, n - 1, n, -1} <= set(d.tolist())
        assert any(n < v <= n + 20 for v in d) and any(-n <= v <= -2 for v in d)
        assert any(-1000 <= v < -n for v in d) and any(v >= 10_000 for v in d)

    every_seed(check)


def test_unhashable_static_windows_hold_an_edge_and_a_middle_window():
    m = checks("13")

    def check(rng):
        values = m.draw_values(rng)
        first, second, third = values
        assert (1 in first or 24 in first) and any(1 < w < 24 for w in first)  # a grouping slip shows there
        assert second == tuple(reversed(first)) and len(set(values)) == 3
        plan = m.draw_calls(rng, values)
        labels = [label for label, _ in plan]
        assert len(plan) == 8 and set(labels) == {0, 1, 2} and all(a != b for a, b in zip(labels, labels[1:]))
        assert any(isinstance(w, tuple) for _, w in plan) and all(isinstance(w, list) for _, w in plan[:1])

    every_seed(check)


def test_static_hyperparameter_learning_rates():
    m = checks("14")

    def check(rng):
        lrs = m.draw_lrs(rng)
        assert len(set(lrs)) == 6 and 0.5 in lrs
        assert any(lr > 0.5 for lr in lrs) and any(1e-4 <= lr <= 1e-3 for lr in lrs)

    every_seed(check)


def test_numpy_on_tracer_large_scores_and_ties():
    m = checks("15")

    def check(rng):
        q, k = m.make_inputs(rng, "large")
        scores = m.reference(q, k, raw=True)
        assert scores.max() > 120.0
        # a query whose every score is over 100 below the largest: a shift by the whole array's maximum underflows it
        assert (scores.max(axis=1) < scores.max() - 100.0).any()
        q, k = m.make_inputs(rng, "ties")
        assert any(np.array_equal(k[a], k[b]) for a in range(6) for b in range(a)) and (q == 0).all(axis=1).any()

    every_seed(check)


def test_jit_method_biases():
    m = checks("16")

    def check(rng):
        b = m.biases(rng)
        assert 0.0 in b and min(abs(x - y) for i, x in enumerate(b) for y in b[i + 1:]) >= 0.4

    every_seed(check)


def test_recompile_storm_lengths_force_a_budget():
    m = checks("17")

    def check(rng):
        lengths = m.longest_lengths(rng)
        assert len(set(lengths)) == m.BATCHES and {1, m.MAX_LEN} <= set(lengths)

    every_seed(check)


def test_jit_in_loop_learning_rates():
    m = checks("18")

    def check(rng):
        lrs = m.learning_rates(rng)
        assert abs(lrs[0] - lrs[1]) >= 0.05 and ({0.01, 0.2} & set(lrs)) and all(0.01 <= lr <= 0.2 for lr in lrs)

    every_seed(check)


def test_weak_types_every_kind_and_both_ends():
    m = checks("19")

    def check(rng):
        kinds, values = m.draw_kinds(rng), m.draw_values(rng)
        assert set(kinds) == set(m.KINDS) and 0.0 in values and 0.5 in values
        assert next(v for v in values if v != 0.0) > 0  # a step with a learning rate that shows its gradient

    every_seed(check)


def test_pytree_structure_every_weight_and_aux_kind():
    m = checks("20")

    def check(rng):
        kinds = m.draw_kinds(rng)
        assert {w for w, _ in kinds} == set(m.WEIGHT_KINDS) and {a for _, a in kinds} == set(m.AUX_KINDS)

    every_seed(check)


def test_prng_key_reuse_inputs():
    m = checks("23")

    def check(rng):
        x = m.draw_x(rng)
        s1, s2 = m.draw_seeds(rng)
        assert 128 <= x.size <= 512 and (x != 0).all() and s1 != s2

    every_seed(check)


def test_numpy_random_frozen_seeds():
    m = checks("24")

    def check(rng):
        seeds = m.draw_seeds(rng)
        assert len(seeds) == 5 and len(set(seeds)) == 4 and not set(seeds) & set(m.EXAMPLE_SEEDS)

    every_seed(check)


def test_nan_hunting_every_edge_row_in_every_batch():
    m = checks("25")

    def check(rng):
        logits, _, kinds = m.make_batch(rng)
        assert set(m.EDGE_KINDS) <= set(kinds) and np.isfinite(logits).all() and np.abs(logits).max() <= 1000
        for row, kind in zip(logits, kinds):
            if kind in ("all_low", "all_high"):
                assert 190 <= abs(float(np.mean(row))) <= 1010

    for seed in range(2_000):  # every batch draws 16 rows of messages too
        check(np.random.default_rng(seed))


def test_where_nan_gradient_zero_axis_tiny_and_large_rows():
    m = checks("26")

    def check(rng):
        v, w, kinds = m.make_call(rng)
        n = np.linalg.norm(v.astype(np.float64), axis=1)
        k = np.array(kinds)
        assert (n[k == "zero"] == 0).all() and (k == "zero").sum() == 4
        assert ((v[k == "axis"] == 0).sum(axis=1) == 2).all()
        assert ((n[k == "tiny"] >= 0.99e-6) & (n[k == "tiny"] <= 1.01e-3)).all()
        assert ((n[k == "large"] >= 99) & (n[k == "large"] <= 1001)).all()

    every_seed(check)


def test_float64_precision_every_kind_of_gap():
    m = checks("27")

    def check(rng):
        starts = sorted(m.starts(rng))
        assert starts[0] < 1.05e9 and starts[-1] > 1.95e9
        gaps = np.diff(m.make_times(rng, starts[0]))
        assert (gaps == 0).any() and ((gaps > 0) & (gaps < 1e-3)).any() and (gaps > 3000).any()

    for seed in range(2_000):
        check(np.random.default_rng(seed))


def test_async_benchmark_one_call_with_one_repeat():
    m = checks("28")

    def check(rng):
        counts = m.repeat_counts(rng)
        assert sorted(counts)[0] == 1 and all(2 <= c <= 9 for c in sorted(counts)[1:])

    every_seed(check)


def test_buffer_donation_plan_and_clipping():
    m = checks("29")

    def check(rng):
        plan = m.plan(rng)
        assert sorted(n for n, _ in plan)[0] == 1 and any(8 <= n <= 32 and k == 1 for n, k in plan)
        assert any(n == 1 and 2 <= k <= 4 for n, k in plan) and any(33 <= n <= 64 and 5 <= k <= 8 for n, k in plan)

    every_seed(check)


@pytest.mark.parametrize("devices", [1, 2, 3, 4, 6, 8])
def test_split_batch_sizes_around_the_device_count(devices):
    from jittrainer.authoring import batch_sizes

    def check(rng):
        sizes = batch_sizes(rng, devices)
        d = devices
        assert d in sizes and any(s % d == 0 and s >= 2 * d for s in sizes)
        if d > 1:
            assert any(s < d for s in sizes) and sum(s > d and s % d for s in sizes) >= 2

    every_seed(check)


def test_named_sharding_shapes():
    m = checks("32")

    def check(rng):
        for d in (4, 6):  # the machines the grader simulates for this exercise
            rows, cols = m.shape(rng, d)
            assert rows in (d, 3 * d) and cols in (3, 5, 7) and cols % d

    every_seed(check)


def _fast_variance_fails(m, xs) -> bool:
    """mean(x**2) - mean(x)**2 in float32 (jax.nn.standardize's default), held to the checks' tolerance."""
    x = xs.astype(np.float32)
    mean = x.mean(axis=1, keepdims=True, dtype=np.float32)
    var = (x * x).mean(axis=1, keepdims=True, dtype=np.float32) - mean * mean
    got = (x - mean) / np.sqrt(np.maximum(var, 0) + np.float32(m.EPS))
    want = m.normalized(xs, 1)
    return not np.allclose(got, want, rtol=1e-4, atol=m.atol(xs))


def test_normalize_rows_sizes_constant_and_narrow_rows():
    m = checks("vmap_under_jit/01")

    def check(rng):
        features = int(rng.integers(2, 13))
        rows = m.draw_rows(rng)
        assert 8 <= rows[0] <= 16 and rows[1:3] == [1, 2] and rows[3] % 2 == 1 and 3 <= rows[3] <= 15
        batches = [m.batch(rng, n, features) for n in rows]
        for xs in batches:
            if xs.shape[0] == 1:
                continue
            x = xs.astype(np.float64)
            assert (np.ptp(x, axis=1) == 0).sum() == 1  # one constant row: EPS decides it
            narrow = (np.abs(x.mean(axis=1)) >= 9.9) & (x.std(axis=1) < 0.05) & (np.ptp(x, axis=1) > 0)
            assert narrow.sum() >= min(m.NARROW, xs.shape[0] - 1)
        assert any(_fast_variance_fails(m, xs) for xs in batches)  # jax.nn.standardize's default fails every seed

    every_seed(check)


def test_per_example_grads_sizes():
    m = checks("vmap_under_jit/02")

    def check(rng):
        d = int(rng.integers(2, 13))
        sizes = m.draw_sizes(rng, d)
        assert sorted(sizes)[0] == 1 and d in sizes and len(set(sizes)) == 4 and max(sizes) <= 16

    every_seed(check)
