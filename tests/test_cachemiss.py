"""Plain words from JAX's cache-miss texts (as jax 0.10.2 writes them), and a fallback for anything else."""

from jittrainer.grading.sandbox.cachemiss import explain, fallback, function_id, function_name, kind

NEVER = "TRACING CACHE MISS at /w/a.py:23:4 (<module>):\n  never seen function:\n    f id=140033612008640 defined at /w/a.py:16"
REDEFINED = NEVER + "\n  but seen another function defined on the same line; maybe the function is\n  being re-defined repeatedly, preventing caching?"
TYPES = (
    "TRACING CACHE MISS at /w/a.py:23:24 (<module>):\n  for f defined at /w/a.py:16\n  all previously seen cache keys "
    "differ. For the closest previous key:\n  different input types:\n  * at x, now f32[3] and before f32[12]"
)
WEAK = (
    "TRACING CACHE MISS at /w/a.py:9:1 (<module>):\n  for h defined at /w/a.py:3\n  all previously seen cache keys "
    "differ. For the closest previous key:\n  different input types:\n  * at v, now f32[]{weak_type=False} and before "
    "f32[]{weak_type=True}https://docs.jax.dev/en/latest/type_promotion.html#weak-types"
)
STATIC = (
    "TRACING CACHE MISS at /w/a.py:24:13 (<module>):\n  for g defined at /w/a.py:18\n  all previously seen cache keys "
    "differ. For the closest previous key:\n  different input pytree:\n  * at input path [0][1], now <class "
    "'jax._src.tree_util.Static'> with pytree metadata Static(val=4) and before <class 'jax._src.tree_util.Static'> "
    "with pytree metadata Static(val=3), so the pytree node metadata does not match"
)


def test_first_call_and_recreated_functions():
    assert str(explain(NEVER, call=1)) == "first call of f: nothing was compiled for it yet"
    assert "new function object" in str(explain(REDEFINED, call=1))
    assert "new function object" in str(explain(NEVER, call=3))
    assert function_name(NEVER) == "f" and function_name(TYPES) == "f"


def test_a_function_seen_before_had_its_cache_emptied():
    # JAX says "never seen function" again after clear_cache(), with the same id: the window knows it compiled before.
    assert function_id(NEVER) == "140033612008640" and function_id(TYPES) is None
    assert kind(NEVER, call=3, cleared=True) == "cleared" and kind(NEVER, call=3) == "new_function"
    assert "its cache was emptied" in str(explain(NEVER, call=3, cleared=True))
    assert kind(TYPES, cleared=True) == "types"  # only a "never seen" miss can be a cleared cache


def test_shape_weak_type_and_static_changes():
    assert str(explain(TYPES)) == "x changed from f32[12] to f32[3]: a new shape or dtype needs a new compile"
    assert str(explain(WEAK)).startswith("v was a Python scalar (weakly typed f32[]) and is now a typed array")
    assert str(explain(STATIC, params=("x", "rows"))).startswith("static argument rows changed from 3 to 4")
    assert "#2 (positional)" in str(explain(STATIC))
    tuples = STATIC.replace("Static(val=4)", "Static(val=(3, 8, 1))").replace("Static(val=3)", "Static(val=(1, 8, 3))")
    assert "changed from (1, 8, 3) to (3, 8, 1):" in str(explain(tuples, params=("x", "windows")))


def test_unknown_wording_falls_back_to_jax_text():
    text = "TRACING CACHE MISS at x.py:1:1 (<module>):\n  something JAX says in a future release"
    assert str(explain(text)) == "JAX says: something JAX says in a future release"
    assert str(explain("")).startswith("JAX says")
    assert len(str(fallback("TRACING CACHE MISS\n" + "y" * 2000))) < 500


def test_kinds():
    assert [kind(NEVER, call=1), kind(NEVER, call=2), kind(REDEFINED)] == ["first", "new_function", "new_function"]
    assert [kind(TYPES), kind(WEAK), kind(STATIC), kind("TRACING CACHE MISS x")] == ["types", "weak_type", "static", "unknown"]
