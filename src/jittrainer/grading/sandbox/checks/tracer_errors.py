"""JAX's errors for a traced value used where a concrete one is needed (``float(x)``, ``if x:``, ``np.asarray(x)``,
``range(n)`` while tracing): a ``runs`` check's advice names the fix for these."""

from __future__ import annotations

from typing import Any

TRACER_ERRORS = {
    "array": "TracerArrayConversionError",  # np.asarray(x), a NumPy function on a tracer
    "int": "TracerIntegerConversionError",  # int(x), range(x), a Python index
    "bool": "TracerBoolConversionError",  # if x:, while x:, and / or
}


def tracer_error(error: Any, *kinds: str) -> bool:
    """Whether ``error`` (an ``ErrorInfo``) is ConcretizationTypeError or one of JAX's tracer conversion errors:
    those ``kinds`` name ("array", "int", "bool"), all three when none is named::

        if tracer_error(error, "int", "bool"):   # Concretization, TracerInteger… or TracerBoolConversionError
            return msg("advice.traced", "…")
    """
    names = [TRACER_ERRORS[kind] for kind in kinds] if kinds else list(TRACER_ERRORS.values())
    return error.type == "ConcretizationTypeError" or error.type in names
