"""The authoring API: everything an exercise's ``checks.py`` imports, from this one module.

A ``checks.py`` declares its checks and grades with the context ``g`` it is given::

    from jittrainer.authoring import msg, one_compile, values_match

    CHECKS = {"runs": "normalize runs under jax.jit", "values": "returns (x - mean) / std", ...}

    def setup(g):            # optional: before the learner's file is imported
        ...

    def grade(g):
        normalize = g.graded(params=1)                  # the learner's function, under jax.jit
        xs = [g.rng.normal(5.0, 1.0, 16).astype("float32") for _ in range(3)]   # inputs first...
        calls = g.calls(normalize, [(x,) for x in xs])  # ...then the counted, captured calls
        g.check_ran("runs", calls)
        values_match(g, "values", calls.results, [(x - x.mean()) / x.std() for x in xs])
        one_compile(g, calls, msg("compiles.head", "{calls} of one shape gave {compiles}; expected 1"),
                    advice=msg("compile_once", "jit normalize once, at module level"), tier=2)
        ...

Every message a learner reads is ``msg(key, English template, **params)`` (``msgn`` for a sentence with a plural
form): the key is the message's id in the exercise's catalog (``locale/zh/LC_MESSAGES/messages.po`` in its folder),
so it translates and re-renders in another language. A failure has an **observation** (what happened, which
pitfall it shows: never the code to write) and optionally an **advice** (the code to write), which the learner
sees once they take the hint tier it names, fail the same check often enough, or ask.

Shared diagnoses
----------------
A mechanism that two exercises need lives here once; the exercise passes its own wording, or leaves it out to get
the helper's default message (from the package's catalog, translated there). A message a helper completes names the
facts it uses in its template and leaves them out of its parameters: ``{head}``, ``{why}`` (JAX's reasons, call by
call) and ``{names}`` (eagerly compiled operations) for compile counts, ``{callbacks}``, ``{line}``. Parameters the
exercise gives win.

``one_compile(g, calls, head, ok=None, causes=(), *, advice=None, tier=None, at_most=None)``
    Pass when the calls compiled once (or at most ``at_most`` times); else fail with the first of ``causes`` that
    holds, in the order listed (nothing compiled is always tried first), or with JAX's reasons and ``advice``::

        one_compile(g, calls, msg("compiles.head", "{calls} with one shape gave {compiles}; expected 1"), causes=[
            when_static(msg("compiles.static", "{head}: scale is static, …"), msg("advice.traced", "…"), tier=2),
            when_new_function(advice=msg("advice.jit_once", "jit f once, at module level")),
            when_eager_in_callback(advice=msg("advice.asarray", "np.asarray(v) in the callback first")),
            when_eager(advice=msg("advice.inside", "keep the work inside f"))])

    The causes: ``when_nothing``, ``when_static``, ``when_new_function``, ``when_eager`` (jax.numpy run outside
    the program), ``when_eager_in_callback`` (the same, while the program holds a host callback), each
    ``(observation=None, advice=None, *, tier=None)``; or ``Cause(lambda g, calls: …, observation, advice, tier)``.
``repeat_that_compiled(calls, keys)``
    ``(call, earlier call, JAX's reason)`` for the first call whose key an earlier call had, yet compiled again::

        repeat = repeat_that_compiled(calls, rows_list)   # (4, 2, reason): call 4 repeated call 2's rows
``split_compiles(misses, own)``, ``eager_source(function)``
    The compiles by function, ``.own`` (``own(function)`` holds) and ``.eager``; ``.eager_first`` when the eager
    ones explain the count, ``.top`` the own function that compiled most, ``.eager_names(name)``; "jnp.pad" for
    "jit(_pad)"::

        split = split_compiles(calls.reasons(), lambda f: f in g.jit_spy.jitted_names)
        if split.eager_first: msg("budget.eager", "… ({names})", names=split.eager_names(eager_source))
``later_misses(misses)``, ``reason_items(misses)``, ``bare_name(function)``
    The surprising compiles (after call 1), as "call 3: …" items; ``bare_name("jit(mean)") == "mean"``::

        msg("compiles.why", "{head}: {items}", head=head, items=reason_items(later_misses(mine)))
``refuse_fetching(g, check, observation, advice=None, *, tier=None, passed=None)``, ``fetching``, ``fetching_in``
    Fail when the graded program uses a host callback's result (pure_callback, io_callback: the work runs in
    Python); ``fetching`` lists those callbacks, ``fetching_in`` for one recorded jitted call::

        refuse_fetching(g, "in_program", msg("in_program.callback", "f gets its answer from Python ({callbacks})"),
                        advice, tier=2, passed=msg("in_program.ok", "the work is done inside the program"))
``values_match(g, check, results, wanted, *, rtol, atol, what=None, slip=None, advice=None, tier=None, ok=None)``
    The first result that differs fails, explained by its known slip when ``slip(i, result)`` finds one (a slip
    that names ``{why}`` gets what differs), else by what differs (``what(i)`` names it, default "the result of call
    {i}"); ``mismatch`` gives that observation without reporting it::

        values_match(g, "values", calls.results, wants, rtol=1e-4, atol=1e-4,
                     slip=lambda i, result: ddof_slip(result, xs[i - 1], i), advice=msg("advice.formula", "…"))
``first_wrong(g, check, items, right, wrong, advice=None, *, tier=None, ok=None)``
    Fail with the exercise's own ``wrong(i, item)`` for the first item ``right(item)`` rejects, else pass with ``ok``::

        first_wrong(g, "values", rows, lambda row: close(row.got, row.want), lambda i, row: msg("values.wrong",
                    "batch {i}: {got:.6g} where {want:.6g} was expected", i=i, got=row.got, want=row.want), advice)
``first_slip(got, ((value, message), …), *, rtol, atol)``, ``as_floats(value, shape, exact)``, ``as_number``
    The message of the first known slip whose value ``got`` matches; a result as float64 NumPy of that shape (None
    when it is not numbers, or has another size), or as one float::

        first_slip(as_floats(result, x.shape), [(centred / x.std(ddof=1), msg("values.ddof1", "…"))], rtol=1e-4,
                   atol=1e-4)
``jit_reach(g, call, arrays, probe=None, other=None)``
    Did every array of graded ``call`` reach a jitted function, and does that function's result move when run
    again with ``other`` in place of ``probe``? ``.problem`` is "", "no_jit", "missing" (``.index``),
    "rerun_failed" (``.error``) or "not_following"; ``.names`` and ``.function`` name the jitted functions::

        found = jit_reach(g, 1, [x], x, x + 1)
        if found.problem == "missing":
            g.failed("in_jit", msg("jit.no_x", "x reached none of {names}", names=found.names))
``at_line(lines, with_line, without)``, ``calls_words(indices)``, ``filled(message, facts)``
    Point at the learner's line when one is found; "call 2" or "calls 2, 3 and 5"; a message completed with the
    facts its template names::

        at_line(g.lines_calling("print", g.function_name), msg("k_line", "… on line {line}"), msg("k", "…"))
``tracer_error(error, *kinds)``
    Whether a run's error is JAX's for a traced value read as a concrete one: ConcretizationTypeError, or a
    TracerArray/Integer/BoolConversionError of ``kinds`` ("array", "int", "bool"; all three when none is named)::

        if tracer_error(error, "int", "bool"): return msg("advice.traced", "inside jit a length is a tracer, …")
``outer_jit_advice(g, advice, wrapped, *kinds)`` (before ``g.graded``)
    A ``runs`` check's advice, said as ``wrapped`` (given ``{fix}``, the advice) when the graded function is not
    jitted itself yet the file uses jit, so the grader's own jax.jit traced the learner's outer code, and the run
    failed on a traced value (``tracer_error(error, *kinds)``)::

        advice = outer_jit_advice(g, run_advice, msg("advice.wrapped", "heat itself is not jitted, so the grader "
                                  "wrapped all of it in jax.jit: delta is a tracer in your outer code too. {fix}"))
``watch_calls(fn, on_call)``
    ``on_call(*args, **kwargs)`` before each call of the plain function ``fn``, through whatever name or alias holds
    it (its code is swapped in place; False when it cannot be)::

        watch_calls(g.replace("report", recorder), lambda *args, **kwargs: stale.append(args))
``shortened(items, limit)``
    The first ``limit`` items, joined, with ", …" when there were more: ``shortened([8, 16, 32, 64], 3) == "8, 16,
    32, …"``.
``batch_sizes(rng, devices)``, ``batch_values(rng, size)``, ``missing_values(x, arrays)``, ``doubled(out)``,
``ignores_mapped_result``
    Splitting a batch over the devices (pmap, shard_map): sizes around the device count, float32 values whose
    squares each add at least 0.25, the values of x that reached none of ``arrays``, and whether the result changes
    when the per-device program's results are doubled (``doubling(True)`` switches the exercise's spy)::

        xs = [batch_values(g.rng, b) for b in batch_sizes(g.rng, jax.device_count())]
        unused = ignores_mapped_result(g, calls, record, lambda on: _STATE.update(double=on))
``lines_writing(g, n)``
    The learner's lines that write the number ``n`` (above 1) as it is: a device count written into the code::

        at_line(lines_writing(g, mesh_size), msg("mesh_line", "… line {line} writes a device count …"), msg(…))
``runs_in(a, v, *, tol=None, limit=64)``, ``shifted(a, places, *, wide=False)``, ``rerun(g, call, args, kwargs)``
    Where v sits in an array as one contiguous run (flat indices, along a row or down a column), a copy of the
    array with ``c`` added at each ``(indices, c)``, and a recorded jitted call run again (muted, uncounted): its
    ``Rerun`` has ``.outputs`` (float64 leaves; None when it raised, ``.error`` says how), ``.flat``, ``.scalars``::

        idx = runs_in(call.arrays[0], seq)
        after = rerun(g, call, *call.arguments([shifted(call.arrays[0], [(np.concatenate(idx), 2.5)])]))
        moved = after.outputs is not None and np.any(np.isclose(after.flat - rerun(g, call).flat, 2.5))
``places_of(leaves, vectors, **find)``, ``shift_rerun(g, call, slots, amounts)``
    Where each vector sits among a call's arrays (``{i: [(array, flat indices), …]}``, by ``runs_in``), and how the
    call's flat outputs moved when run again with ``amounts[i]`` added at every place of vector ``i``
    (``(delta, "")``, or ``(None, error)`` when a rerun failed)::

        delta, error = shift_rerun(g, call, places_of(call.arrays, seqs), shifts)
``eqns_within(jaxpr)``
    Every equation of a program, nested ones included, with the primitives that hold it (outermost first)::

        in_loop = [eqn for eqn, holders in eqns_within(closed) if {"scan", "while"} & set(holders)]
``taken_by(jaxpr, primitives, *, kind=…)``
    Whether a variable (or a slice, reshape, … of it) is an operand of one of ``primitives``, in nested calls too
    (operands of ``kind`` fed to a cond or loop body that takes any count)::

        reused = taken_by(jaxpr, {"random_bits", "random_split"}, kind=is_typed_key)(jaxpr.outvars[-1])
``constants_of(closed, *, nested=True)``
    The constants a traced program captured (a closure's or a global's arrays, numbers drawn while tracing), nested
    jaxprs' too unless ``nested=False``; each ``Constant`` has ``.type`` ("float32[64,16]"), ``.nbytes``, ``.array``::

        worst = max(constants_of(call.jaxpr()), key=lambda c: c.nbytes, default=None)   # a recorded jitted call
``structure_text(call)``, ``call_signature(call)``, ``shape_changes(signatures)``, ``array_types(calls)``
    A recorded jitted call's pytree as JAX writes it, its (structure, leaf types) key, the types the first changing
    leaf took, the commonest array types among calls' arguments; ``keep_argument_copies(g.jit_spy)`` (in setup)
    records copies of the NumPy arguments, taken at each call::

        structures = list(dict.fromkeys(structure_text(c) for c in mine))   # ["{'pred': *, 'aux': [*]}", …]
``describe_leaks_robustly(freeze=False)`` (in setup; returns its undo)
    Keeps ``jax.checking_leaks()``'s error intact when JAX's own walk over the referrers of a leaked tracer fails on
    the heap it meets (an IndexError instead of the leak), naming the module-level holder in JAX's words::

        def setup(g):
            describe_leaks_robustly(freeze=True)     # a worker grades once and exits; grade() unfreezes
``hooked(fn, after)``, ``HookedLowered(lowered, after)``
    ``fn`` with ``after`` applied to each result, ahead-of-time copies (``fn.lower(x).compile()``) too::

        spy.pmap = lambda fun, axis_name=None, **options: hooked(spy_pmap(fun, axis_name, **options), _doubled)
``Hooked(real, after, name, doc=None)``
    A stand-in for a jitted function handed to the learner (named ``name``, other attributes ``real``'s) whose
    results, ahead-of-time copies' too, pass through ``after``::

        step = Hooked(jax.jit(step), _record_call, "step")   # time_step(step, x, repeats) calls it
``spy_clocks(filename, on_read)``, ``spy_waits(on_wait)``, ``spy_compiles(on_compile)``, ``still_running``
    From ``setup(g)``: ``on_read(seconds, clock)`` for each read of a time clock (or timeit's) by ``filename``'s
    code, ``on_wait(value, how)`` for each ``block_until_ready`` ("function", "method") or ``is_ready()`` that
    answered True, ``on_compile(name)`` for each backend compile; ``still_running(arrays)`` counts the unfinished::

        spy_clocks(g.filename, lambda seconds, clock: log.append(("clock", seconds, still_running(outs))))
        spy_waits(lambda value, how: log.append(("wait", id(value), how)))
``EventLog()``
    What the spies saw while a watched function ran: ``log.add(*event)`` logs only then, ``log.watching(fn, reset,
    keep)`` wraps the graded function, ``log.runs`` holds each call's (events, ``keep()``)::

        calls = g.calls(LOG.watching(time_step, _OUTS.clear, lambda: dict(_OUTS)), args)

This import path and the ``CHECKS`` + ``grade(g)`` convention are stable: an exercise folder written for this
version keeps working.
"""

from __future__ import annotations

from typing import Any

from jittrainer.grading.sandbox.checks.callbacks import fetching, fetching_in, refuse_fetching
from jittrainer.grading.sandbox.checks.calls import CallRecord, GradedCalls
from jittrainer.grading.sandbox.checks.compiles import (
    Cause,
    CompileSplit,
    bare_name,
    eager_failed,
    eager_source,
    later_misses,
    one_compile,
    reason_items,
    repeat_that_compiled,
    split_compiles,
    when_eager,
    when_eager_in_callback,
    when_new_function,
    when_nothing,
    when_static,
)
from jittrainer.grading.sandbox.checks.constants import Constant, constants_of
from jittrainer.grading.sandbox.checks.context import CheckContext, LearnerFailure
from jittrainer.grading.sandbox.checks.jaxprs import (
    CALLBACK_PRIMITIVES,
    eqns_of,
    eqns_within,
    feeding_callbacks,
    iter_eqns,
    primitive_names,
    sub_jaxprs,
    taken_by,
    work_outputs,
)
from jittrainer.grading.sandbox.checks.independence import independence_failure, related_masks
from jittrainer.grading.sandbox.checks.module_state import stored_numbers, tracers_in_module, typed_copy
from jittrainer.grading.sandbox.checks.outer_jit import outer_jit_advice
from jittrainer.grading.sandbox.jax_compat import describe_leaks_robustly
from jittrainer.grading.sandbox.checks.output_hooks import Hooked, HookedLowered, hooked
from jittrainer.grading.sandbox.checks.replay import OpReplay, makes_nan
from jittrainer.grading.sandbox.checks.reruns import Rerun, places_of, rerun, runs_in, shift_rerun, shifted
from jittrainer.grading.sandbox.checks.reaches_jit import JitReach, built_from_jit, jit_reach, perturbed, reach_failure, refuse_beside_jit
from jittrainer.grading.sandbox.checks.results import (
    as_floats,
    as_number,
    first_slip,
    first_wrong,
    float32_atol,
    mismatch,
    refuse_wrong_type,
    type_of,
    values_match,
    wrong_type,
)
from jittrainer.grading.sandbox.checks.spies import JitCall, PmapCall, is_compiled, is_jitted
from jittrainer.grading.sandbox.checks.splits import (
    batch_sizes,
    batch_values,
    doubled,
    doubling_binds,
    ignores_mapped_result,
    lines_writing,
    missing_values,
    refuse_unused,
)
from jittrainer.grading.sandbox.checks.timing import EventLog, spy_clocks, spy_compiles, spy_waits, still_running
from jittrainer.grading.sandbox.checks.tracer_errors import tracer_error
from jittrainer.grading.sandbox.checks.trees import (
    array_types,
    call_signature,
    keep_argument_copies,
    shape_changes,
    structure_text,
)
from jittrainer.grading.sandbox.checks.values import (
    compare,
    concrete_arrays,
    concrete_float,
    is_tracer,
    is_typed_key,
    numbers_in,
    type_name,
)
from jittrainer.grading.sandbox.checks.watched import watch_calls
from jittrainer.grading.sandbox.checks.wording import at_line, calls_words, filled, shortened
from jittrainer.grading.verdict import ErrorInfo
from jittrainer.i18n.message import Msg, count, join

_domain = ""  # the exercise whose checks are loaded; set by the sandbox before it imports checks.py


def use_domain(domain: str) -> None:
    global _domain
    _domain = domain


def msg(key: str, text: str, /, **params: Any) -> Msg:
    """A message of this exercise: ``key`` is its id, ``text`` the English template, ``params`` its values."""
    return Msg(key, text, params, domain=_domain)


def msgn(key: str, singular: str, plural: str, /, *, count: str = "n", **params: Any) -> Msg:
    """A message with a plural form, picked by the parameter named ``count`` (default ``n``)."""
    return Msg(key, singular, params, plural, count, domain=_domain)


__all__ = [
    "describe_leaks_robustly",
    "CALLBACK_PRIMITIVES",
    "CallRecord",
    "Cause",
    "CheckContext",
    "CompileSplit",
    "Constant",
    "ErrorInfo",
    "EventLog",
    "GradedCalls",
    "Hooked",
    "HookedLowered",
    "JitCall",
    "JitReach",
    "LearnerFailure",
    "Msg",
    "OpReplay",
    "PmapCall",
    "Rerun",
    "array_types",
    "as_floats",
    "as_number",
    "at_line",
    "bare_name",
    "batch_sizes",
    "batch_values",
    "built_from_jit",
    "call_signature",
    "calls_words",
    "compare",
    "concrete_arrays",
    "concrete_float",
    "constants_of",
    "count",
    "doubled",
    "doubling_binds",
    "eager_failed",
    "eager_source",
    "eqns_of",
    "eqns_within",
    "feeding_callbacks",
    "fetching",
    "fetching_in",
    "filled",
    "first_slip",
    "first_wrong",
    "float32_atol",
    "hooked",
    "ignores_mapped_result",
    "independence_failure",
    "is_compiled",
    "is_jitted",
    "is_tracer",
    "is_typed_key",
    "iter_eqns",
    "jit_reach",
    "join",
    "keep_argument_copies",
    "later_misses",
    "lines_writing",
    "makes_nan",
    "mismatch",
    "missing_values",
    "msg",
    "msgn",
    "numbers_in",
    "one_compile",
    "outer_jit_advice",
    "perturbed",
    "places_of",
    "primitive_names",
    "reach_failure",
    "reason_items",
    "refuse_beside_jit",
    "refuse_fetching",
    "refuse_unused",
    "refuse_wrong_type",
    "related_masks",
    "repeat_that_compiled",
    "rerun",
    "runs_in",
    "shape_changes",
    "shift_rerun",
    "shortened",
    "shifted",
    "split_compiles",
    "spy_clocks",
    "spy_compiles",
    "spy_waits",
    "still_running",
    "stored_numbers",
    "structure_text",
    "sub_jaxprs",
    "taken_by",
    "tracer_error",
    "tracers_in_module",
    "type_name",
    "type_of",
    "typed_copy",
    "values_match",
    "watch_calls",
    "when_eager",
    "when_eager_in_callback",
    "when_new_function",
    "when_nothing",
    "when_static",
    "work_outputs",
    "wrong_type",
]
