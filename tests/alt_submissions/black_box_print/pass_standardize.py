# expect: pass
# jax.nn.standardize adds a tiny epsilon to the variance: well within the grader's tolerance.
import jax


@jax.jit
def normalize(x):
    jax.debug.print("{}", x.mean())
    return jax.nn.standardize(x)
