# expect: runs
# Wrong: jax.disable_jit() inside compute changes nothing once the grader's jit traces compute; the advice says so.
import jax

log = []


def compute(x):
    with jax.disable_jit():
        log.append(float(x))
        return x * 2
