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

The whole reference, helper by helper with an example each, is ``docs/toolkit.md``; a helper that a new exercise
needs and a second one could use goes into ``grading/sandbox/checks/`` and that page, not into the exercise.

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
from jittrainer.grading.sandbox.checks.costs import MemoryUse, memory_use, program_memory, run_count
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
    unique_promises,
    work_outputs,
)
from jittrainer.grading.sandbox.checks.hlo import Collective, collectives, compiled_text
from jittrainer.grading.sandbox.checks.host_syncs import (
    BatchLoader,
    Transfer,
    implicit_transfer,
    no_implicit_transfers,
    spy_host_syncs,
)
from jittrainer.grading.sandbox.checks.independence import independence_failure, related_masks
from jittrainer.grading.sandbox.checks.layouts import (Layout, PlacementChange, layout_of, placement,
                                                       placement_change, shard_shapes)
from jittrainer.grading.sandbox.checks.jit_outputs import MadeBy, keep_jit_outputs, made_by, returned_by
from jittrainer.grading.sandbox.checks.live import LiveSample, LiveWatch, watch_live
from jittrainer.grading.sandbox.checks.module_state import stored_numbers, tracers_in_module, typed_copy
from jittrainer.grading.sandbox.checks.outer_jit import outer_jit_advice
from jittrainer.grading.sandbox.jax_compat import describe_leaks_robustly
from jittrainer.grading.sandbox.checks.output_hooks import Hooked, HookedLowered, hooked
from jittrainer.grading.sandbox.checks.programs import programs_text, spy_programs
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
from jittrainer.grading.sandbox.checks.phases import PhaseLog, mark_phase
from jittrainer.grading.sandbox.checks.persistent_cache import (CacheEvent, first_difference, parse_cache_line,
                                                                 program_name, program_text, spy_persistent_cache)
from jittrainer.grading.sandbox.checks.statics import StaticChurn, static_churn
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
from jittrainer.grading.sandbox.checks.held import keep_held_copies
from jittrainer.grading.sandbox.checks.timing import EventLog, spy_clocks, spy_compiles, spy_waits, still_running
from jittrainer.grading.sandbox.checks.tracer_errors import tracer_error
from jittrainer.grading.sandbox.checks.trees import (
    MetadataProblem,
    array_types,
    call_signature,
    keep_argument_copies,
    metadata_problem,
    shape_changes,
    structure_text,
)
from jittrainer.grading.sandbox.checks.values import (
    best_fit,
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
    "watch_live",
    "CacheEvent",
    "first_difference",
    "best_fit",
    "made_by",
    "MadeBy",
    "parse_cache_line",
    "program_name",
    "program_text",
    "spy_persistent_cache",
    "static_churn",
    "returned_by",
    "mark_phase",
    "keep_jit_outputs",
    "StaticChurn",
    "PhaseLog",
    "LiveWatch",
    "LiveSample",
    "describe_leaks_robustly",
    "BatchLoader",
    "CALLBACK_PRIMITIVES",
    "CallRecord",
    "Collective",
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
    "Layout",
    "LearnerFailure",
    "MemoryUse",
    "MetadataProblem",
    "Msg",
    "OpReplay",
    "PlacementChange",
    "PmapCall",
    "Rerun",
    "Transfer",
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
    "collectives",
    "compare",
    "compiled_text",
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
    "implicit_transfer",
    "independence_failure",
    "is_compiled",
    "is_jitted",
    "is_tracer",
    "is_typed_key",
    "iter_eqns",
    "jit_reach",
    "join",
    "keep_argument_copies",
    "keep_held_copies",
    "later_misses",
    "layout_of",
    "lines_writing",
    "makes_nan",
    "memory_use",
    "metadata_problem",
    "mismatch",
    "no_implicit_transfers",
    "missing_values",
    "msg",
    "msgn",
    "numbers_in",
    "one_compile",
    "outer_jit_advice",
    "perturbed",
    "placement",
    "placement_change",
    "places_of",
    "primitive_names",
    "programs_text",
    "program_memory",
    "reach_failure",
    "reason_items",
    "refuse_beside_jit",
    "refuse_fetching",
    "refuse_unused",
    "refuse_wrong_type",
    "related_masks",
    "repeat_that_compiled",
    "rerun",
    "run_count",
    "runs_in",
    "shape_changes",
    "shift_rerun",
    "shortened",
    "shard_shapes",
    "shifted",
    "split_compiles",
    "spy_clocks",
    "spy_compiles",
    "spy_host_syncs",
    "spy_programs",
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
    "unique_promises",
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
