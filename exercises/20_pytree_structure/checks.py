"""Checks for pytree_structure: 24 batches whose optional entries vary (weight missing, None or an array; aux
missing, empty or a list of 1 to 3 arrays), all with one length N drawn from the seed. The loss must be right,
computed from the batch by one jitted call (proved by running that call again with pred and an aux head shifted),
and the 24 batches may compile only once: a jitted function fed the batch as it is sees a new pytree structure
whenever the optional entries change, and compiles again."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import jax
import numpy as np

from jittrainer.authoring import (Rerun, array_types, as_number, at_line, bare_name, call_signature, count, first_wrong,
                                  keep_argument_copies, msg, msgn, places_of, refuse_fetching, rerun, shape_changes,
                                  shifted, split_compiles, structure_text, tracer_error, type_name)
CHECKS = {
    "runs": "batch_loss returns for every batch",
    "one_compile": "24 batches of mixed structure compile once",
    "values": "returns the weighted loss of every batch",
    "reaches_jit": "the loss is computed from the batch by one jitted call",
}

BATCHES = 24
MAX_LEN = 64
MAX_AUX = 3
FIX_TIER = 2  # the hint tier on filling the optional entries on the host and masking the heads
WEIGHT_KINDS = ("missing", "none", "array")
AUX_KINDS = ("missing", 0, 1, 2, 3)  # "missing": no "aux" key; a number: a list of that many heads


# ------------------------------------------------------------------------------------------------ inputs


@dataclass
class Batch:
    pred: np.ndarray
    target: np.ndarray
    weight: np.ndarray | None  # None: missing or None in the dict (every weight is 1)
    heads: list[np.ndarray]
    weight_kind: str
    aux_kind: object

    def as_dict(self, rng: np.random.Generator) -> dict:
        """The batch as the learner receives it: fresh NumPy copies, keys in a random order."""
        items = [("pred", self.pred.copy()), ("target", self.target.copy())]
        if self.weight_kind == "none":
            items.append(("weight", None))
        elif self.weight_kind == "array":
            items.append(("weight", self.weight.copy()))
        if self.aux_kind != "missing":
            items.append(("aux", [h.copy() for h in self.heads]))
        order = rng.permutation(len(items))
        return {items[i][0]: items[i][1] for i in order}


def draw_length(rng: np.random.Generator) -> int:
    """N for the whole run: 1 and 64 often (the edges), any length in between otherwise."""
    roll = rng.uniform()
    if roll < 0.15:
        return 1
    if roll < 0.3:
        return MAX_LEN
    return int(rng.integers(2, MAX_LEN))


def draw_kinds(rng: np.random.Generator) -> list[tuple[str, object]]:
    """24 (weight, aux) kinds: every weight kind and every aux kind at least once, the rest at random, shuffled."""
    kinds = [(WEIGHT_KINDS[i % 3], aux) for i, aux in enumerate(AUX_KINDS)]
    while len(kinds) < BATCHES:
        kinds.append((WEIGHT_KINDS[rng.integers(3)], AUX_KINDS[rng.integers(len(AUX_KINDS))]))
    order = rng.permutation(BATCHES)
    return [kinds[i] for i in order]


def make_batch(rng: np.random.Generator, n: int, weight_kind: str, aux_kind) -> Batch:
    target = rng.normal(rng.uniform(-5.0, 5.0), rng.uniform(0.5, 2.0), n).astype(np.float32)
    pred = (target + rng.normal(0.0, rng.uniform(0.2, 1.5), n)).astype(np.float32)
    weight = None
    if weight_kind == "array":
        weight = rng.uniform(0.1, 3.0, n)
        weight[rng.uniform(size=n) < 0.2] = 0.0  # some examples do not count at all
        if not weight.any():
            weight[rng.integers(n)] = rng.uniform(0.5, 2.0)
        weight = weight.astype(np.float32)
    heads = []
    if aux_kind != "missing":
        heads = [(target + rng.normal(0.0, rng.uniform(0.5, 3.0), n)).astype(np.float32) for _ in range(aux_kind)]
    return Batch(pred, target, weight, heads, weight_kind, aux_kind)


def wmse(a, target, weight) -> float:
    a, t = np.asarray(a, np.float64), np.asarray(target, np.float64)
    w = np.ones_like(t) if weight is None else np.asarray(weight, np.float64)
    return float(np.sum(w * (a - t) ** 2) / np.sum(w))


def loss_of(pred, target, weight, heads) -> float:
    aux = float(np.mean([wmse(h, target, weight) for h in heads])) if heads else 0.0
    return wmse(pred, target, weight) + 0.5 * aux


# ------------------------------------------------------------------------------------------------ jit spy


def setup(g):
    keep_argument_copies(g.jit_spy)  # a file that refills one buffer for every batch still has its reruns


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    batch_loss = g.graded(params=1)
    n = draw_length(g.rng)
    batches = [make_batch(g.rng, n, w, a) for w, a in draw_kinds(g.rng)]
    dicts = [b.as_dict(g.rng) for b in batches]
    shifts = [(_shift(g.rng), _shift(g.rng), int(g.rng.integers(max(1, len(b.heads))))) for b in batches]
    calls = g.calls(batch_loss, [(d,) for d in dicts])
    g.check_ran("runs", calls, _error_advice, tier=FIX_TIER)

    check_compiles(g, calls, batches)
    exact = check_values(g, calls.results, batches)
    check_reaches_jit(g, batches, shifts, exact)


def _shift(rng: np.random.Generator) -> float:
    return float(rng.choice([-1.0, 1.0]) * rng.uniform(0.5, 3.0))


def _error_advice(error):
    text = error.message
    if error.type == "KeyError":
        return msg("advice.get", "a key may be missing from the batch: read the optional entries with "
                   "batch.get(\"weight\") and batch.get(\"aux\"), which give None when the key is not there")
    if error.type in ("TypeError", "AttributeError") and "NoneType" in text:
        return msg("advice.none", "weight may be None (or missing): replace it with np.ones(n, np.float32) on the "
                   "host before the jitted call")
    if error.type in ("IndexError", "ValueError") and ("index" in text or "broadcast" in text or "shape" in text):
        return msg("advice.slots", "a batch has up to 3 aux heads and its length n comes from pred.shape[0]: "
                   "make np.zeros((3, n), np.float32) and copy each head into a row")
    if tracer_error(error, "int", "bool"):
        return msg("advice.host_decides", "decide on the host, before the jitted call, what is present: inside jit "
                   "the count of heads is a tracer; pass it as a mask and combine with jnp.where")
    return None


# ------------------------------------------------------------------------------------------------ compiles


def check_compiles(g, calls, batches) -> bool:
    total = calls.compiles
    if total == 1:
        return g.passed("one_compile", msg("compiles.ok_aot", "1 compile over {batches} batches, made ahead of time "
                                           "before the first batch", batches=BATCHES) if calls.window.aot else
                        msg("compiles.ok", "1 compile over {batches} batches: batch 1 compiled, the other {rest} "
                            "reused it", batches=BATCHES, rest=BATCHES - 1))
    if total == 0:
        return g.failed("one_compile", msg("compiles.none", "nothing was compiled during the {batches} batches: "
                                           "batch_loss called no jitted function", batches=BATCHES), _advice_fixed(),
                        tier=FIX_TIER)
    observation, advice = _cause(g, calls, batches)
    return g.failed("one_compile", observation, advice, tier=FIX_TIER)


def _advice_fixed():
    return msg("advice.fixed", "give the jitted function the same pytree every time: always the same keys, a "
               "weight array of ones when it is missing or None, the heads copied into np.zeros((3, n)) plus a "
               "boolean mask of the real rows")


def _cause(g, calls, batches):
    """The main reason for the extra compiles, as (observation, advice)."""
    misses = calls.reasons()
    head = msg("compiles.head", "the {batches} batches compiled {times} (expected 1)", batches=BATCHES,
               times=count("time", calls.compiles))
    own_names = {f"jit({c.function})" for c in g.jit_spy.calls if c.call is not None}
    split = split_compiles(misses, lambda f: f in own_names or f in g.jit_spy.jitted_names)
    kinds = Counter(m.kind for m in misses if m.function in split.own)
    if split.eager_first:
        return (msg("compiles.eager", "{head}: jax.numpy operations run eagerly, outside any jitted function, "
                    "account for {times} ({names}); each compiles the first time it meets a shape", head=head,
                    times=count("time", sum(split.eager.values())), names=split.eager_names()),
                msg("advice.numpy", "build the missing entries with NumPy on the host (np.ones, np.zeros, slice "
                    "assignment) and hand JAX only the finished arrays"))
    if "new_function" in kinds:
        function = next(f for f in split.own if any(m.kind == "new_function" and m.function == f for m in misses))
        common = {"head": head, "function": bare_name(function)}
        return (at_line(g.lines_calling(r"\bjit\s*\(", g.function_name), msg(
            "compiles.new_function_line", "{head}: line {line} makes a new jitted function inside batch_loss on every "
            "call, and a new function starts with an empty cache, whatever the structure of its arguments", **common),
            msg("compiles.new_function", "{head}: {function} is a new jitted function on every call, and a new "
                "function starts with an empty cache", **common)),
                msg("advice.jit_once", "make the jitted function once, at module level, and call that same "
                    "function from batch_loss"))
    if "static" in kinds:
        return (msg("compiles.static", "{head}: a static argument took a new value ({why}); a static value is part "
                    "of the cache key, just like the structure of the arguments", head=head,
                    why=calls.why_compiled(limit=1)),
                msg("advice.count_traced", "pass the number of heads as an array (or a boolean mask of the real "
                    "rows), not as a static argument, and mask with jnp.where inside jit"))
    if split.own:
        function = split.top
        mine = [c for c in g.jit_spy.calls if c.call is not None and f"jit({c.function})" == function]
        structures = list(dict.fromkeys(structure_text(c) for c in mine))
        signatures = list(dict.fromkeys(call_signature(c) for c in mine))
        lines = g.lines_calling(rf"\b{bare_name(function)}\s*\(", g.function_name)
        common = {"head": head, "function": bare_name(function), "k": len(structures)}
        if len(structures) > 1:
            common.update(first=structures[0], second=structures[1])
            return (at_line(lines, msg(
                "compiles.structures_line", "{head}: line {line} hands {function} {k} different pytree structures, "
                "for example {first} and {second}. jit keys its cache on the structure of the arguments (which dict "
                "keys there are, which entries are None, how long each list is) as well as on shapes and dtypes, so "
                "every new structure was traced and compiled again", **common), msg(
                "compiles.structures", "{head}: {function} received {k} different pytree structures, for example "
                "{first} and {second}. jit keys its cache on the structure of the arguments (which dict keys there "
                "are, which entries are None, how long each list is) as well as on shapes and dtypes, so every new "
                "structure was traced and compiled again", **common)), _advice_fixed())
        if len(signatures) > 1:
            shapes = shape_changes(signatures)
            return (msg("compiles.shapes", "{head}: {function} always received the same pytree structure, but its "
                        "arrays changed shape or dtype ({shapes}): a stacked array whose length follows the number "
                        "of heads is a new shape whenever that number changes", shapes=shapes, **common),
                    msg("advice.fixed_rows", "stack the heads into a fixed number of rows, np.zeros((3, n)), and "
                        "pass a mask of the real ones"))
        return (msg("compiles.why", "{head} ({why})", why=calls.why_compiled(), **common), _advice_fixed())
    return (msg("compiles.unexplained", "{head}; JAX gave no reason for them", head=head), _advice_fixed())


# ------------------------------------------------------------------------------------------------ values


def _close(a, b) -> bool:
    return a is not None and bool(np.isclose(a, b, rtol=1e-4, atol=1e-5))


def check_values(g, results, batches) -> bool:
    rows = ((result, b, loss_of(b.pred, b.target, b.weight, b.heads), as_number(result))
            for result, b in zip(results, batches))
    return first_wrong(g, "values", rows, lambda row: _close(row[3], row[2]), _wrong_value, msg(
        "advice.masked_mean", "average the aux term over the real heads only (sum under the mask, divide by the "
        "mask's count, 0 when there is none), and use weights of 1 when weight is missing or None"), tier=FIX_TIER,
        ok=msg("values.ok", "all {n} losses match", n=BATCHES))


def _wrong_value(i, row):
    result, b, want, got = row
    what = _describe(b)
    if got is None:
        return msg("values.not_number", "batch {i} ({what}): batch_loss returned {got}, not one number", i=i,
                   what=what, got=type_name(result))
    return _value_slip(i, b, got, want, what) or msg(
        "values.wrong", "batch {i} ({what}): batch_loss returned {got:.6g} where {want:.6g} was expected", i=i,
        what=what, got=got, want=want)


def _describe(b: Batch):
    weight = {"missing": msg("what.weight_missing", "no weight key"), "none": msg("what.weight_none", "weight None"),
              "array": msg("what.weight_array", "a weight array")}[b.weight_kind]
    aux = (msg("what.aux_missing", "no aux key") if b.aux_kind == "missing" else
           msgn("what.aux_heads", "{n} aux head", "{n} aux heads", n=b.aux_kind))
    return msg("what.batch", "{weight}, {aux}", weight=weight, aux=aux)


def _value_slip(i, b: Batch, got: float, want: float, what):
    """A known slip that explains a wrong loss, in words, or None."""
    common = {"i": i, "what": what, "got": got, "want": want}
    k = len(b.heads)
    main = wmse(b.pred, b.target, b.weight)
    per_head = [wmse(h, b.target, b.weight) for h in b.heads]
    if np.isnan(got):
        if k == 0:
            return msg("values.nan_no_heads", "batch {i} ({what}): the loss is NaN; with no aux heads the aux term "
                       "must be 0, but it was an average over zero heads (0 / 0)", **common)
        if b.weight is None:
            return msg("values.nan_weight", "batch {i} ({what}): the loss is NaN; a missing or None weight means "
                       "every weight is 1, but the weights summed to 0 (0 / 0)", **common)
        return msg("values.nan", "batch {i} ({what}): the loss is NaN where {want:.6g} was expected", **common)
    if k and _close(got, main + 0.5 * sum(per_head) / MAX_AUX) and k != MAX_AUX:
        return msg("values.divided_by_slots", "batch {i} ({what}): the aux term was divided by 3, the number of "
                   "slots, instead of {k}, the number of real heads", k=k, **common)
    padded = per_head + [wmse(np.zeros_like(b.target), b.target, b.weight)] * (MAX_AUX - k)  # empty slots as heads
    if k < MAX_AUX and _close(got, main + 0.5 * float(np.mean(padded))):
        if k == 0:
            return msg("values.padding_counted_none", "batch {i} ({what}): with no heads the aux term must be 0, but "
                       "the 3 empty slots were averaged in as if they were heads predicting 0", **common)
        return msg("values.padding_counted", "batch {i} ({what}): the empty slots ({pad} of 3) were averaged in as if "
                   "they were heads predicting 0; only the real heads ({k}) count", pad=MAX_AUX - k, k=k, **common)
    if k > 1 and _close(got, main + 0.5 * sum(per_head)):
        return msg("values.summed", "batch {i} ({what}): the aux term is the sum over the heads, not their mean",
                   **common)
    if k and _close(got, main + sum(per_head) / k):
        return msg("values.no_half", "batch {i} ({what}): the aux term was added without its factor 0.5",
                   **common)
    if b.weight is not None and _close(got, loss_of(b.pred, b.target, None, b.heads)):
        return msg("values.unweighted", "batch {i} ({what}): the loss ignores the weights; with a weight array "
                   "every squared error counts with its weight", **common)
    if k and _close(got, main):
        return msg("values.no_aux", "batch {i} ({what}): the result is the main term alone; the aux heads ({k}) "
                   "were left out", k=k, **common)
    return None


# ------------------------------------------------------------------------------------------------ reaches jit


def _follows(g, call, v: np.ndarray, c: float, want: float, exact: bool) -> tuple[bool | None, Rerun]:
    """Shift every run of v found in the call's arguments by c (each place alone, then all together) and rerun the
    call. True when a one-element output equals ``want`` (``exact``), or, when the loss was already found wrong,
    when a one-element output moved at all; None when v is not among the arguments."""
    leaves, tree = jax.tree_util.tree_flatten((call.args, call.kwargs))
    places = places_of(leaves, [v], tol=0, limit=4).get(0, [])
    if not places:
        return None, Rerun(call.function)
    before = [] if exact else rerun(g, call, call.args, call.kwargs).scalars
    last = Rerun(call.function)
    for group in [[p] for p in places[:4]] + ([places] if len(places) > 1 else []):
        changed = list(leaves)
        for i, idx in group:
            changed[i] = shifted(changed[i], [(idx, c)])
        last = rerun(g, call, *jax.tree_util.tree_unflatten(tree, changed))
        ones = last.scalars
        if last.outputs is not None and exact and any(_close(o, want) for o in ones):
            return True, last
        if last.outputs is not None and not exact and len(ones) == len(before) and any(
                not _close(o, b) for o, b in zip(ones, before)):
            return True, last
    return False, last


def check_reaches_jit(g, batches, shifts, exact: bool) -> bool:
    spy = g.jit_spy
    if not any(c.call is not None for c in spy.calls):
        return g.failed("reaches_jit", msg("jit.never", "batch_loss called no jitted function in any of the "
                                           "{n} batches: the loss was computed outside jit", n=BATCHES),
                        _advice_jit(), tier=FIX_TIER)
    for i, (b, (c_pred, c_head, k)) in enumerate(zip(batches, shifts), 1):
        mine = [c for c in spy.calls if c.call == i]
        tests = [("pred", b.pred, c_pred, loss_of(b.pred + np.float32(c_pred), b.target, b.weight, b.heads))]
        if b.heads:
            heads = [h + np.float32(c_head) if j == k else h for j, h in enumerate(b.heads)]
            tests.append(("head", b.heads[k], c_head, loss_of(b.pred, b.target, b.weight, heads)))
        for what, v, c, want in tests:
            found, reruns = False, []
            for call in mine:
                ok, tried = _follows(g, call, v, c, want, exact)
                if ok:
                    break
                if ok is not None:
                    found = True
                    reruns.append(tried)
            else:
                return g.failed("reaches_jit", _not_proven(i, what, k, c, want, found, reruns, mine, exact),
                                _advice_jit(), tier=FIX_TIER)
    return refuse_fetching(g, "reaches_jit", passed=msg(
        "jit.ok", "in every batch one jitted call received pred and the aux heads and returned the loss; run again "
        "with pred or a head shifted, the loss it returned followed"))


def _advice_jit():
    return msg("advice.jit", "hand pred, target, the weights and the stacked heads with their mask to one jitted "
               "function, unchanged, and compute the whole loss inside it")


def _not_proven(i, what, k, c, want, found, reruns, mine, exact):
    name = msg("what.pred", "pred") if what == "pred" else msg("what.head", "aux head {k}", k=k + 1)
    common = {"i": i, "name": name, "c": c, "want": want}
    if not mine:
        return msg("jit.batch_without", "during batch {i} batch_loss called no jitted function, so its loss was "
                   "computed outside jit", **common)
    if not found:
        return msg("jit.missing", "in batch {i}, {name} never reached a jitted function as it is (the jitted calls "
                   "received {shapes}): the values it needs were worked out before the call, outside jit",
                   shapes=array_types(mine), **common)
    rerun = reruns[-1] if reruns else Rerun()
    if rerun.outputs is None:
        return msg("jit.rerun_failed", "in batch {i}, {name} reached your jitted function {function}, but running "
                   "it again with {name} shifted by {c:.3g} failed ({error})", function=rerun.function,
                   error=rerun.error or "?", **common)
    if not rerun.scalars:
        return msg("jit.no_scalar", "in batch {i}, {name} reached your jitted function {function}, but it returns "
                   "no single number: the loss must come out of that call", function=rerun.function, **common)
    if not exact:
        return msg("jit.no_move", "in batch {i}, {name} reached your jitted function {function}, but run again with "
                   "{name} shifted by {c:.3g} its result did not move: what it returns does not depend on that data",
                   function=rerun.function, **common)
    return msg("jit.no_follow", "in batch {i}, {name} reached your jitted function {function}, but run again with "
               "{name} shifted by {c:.3g} it returned {got} where the changed batch's loss is {want:.6g}: the loss "
               "it returns is not computed from that data (or not all of it)", function=rerun.function,
               got=[f"{o:.6g}" for o in rerun.scalars[:3]], **common)
