# expect: one_compile
import jax


def _heat(delta):
    if delta > 0:
        return 1.5 * delta + 2.0
    else:
        return 0.25 * delta


heat = jax.jit(_heat, static_argnames="delta")
