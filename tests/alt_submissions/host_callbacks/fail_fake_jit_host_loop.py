# expect: runs
# Wrong: reports from a host loop and fakes .lower/.trace; the grader jits train itself, so np.asarray meets a
# tracer. The advice says the grader wrapped train.
import numpy as np
import jax
import jax.numpy as jnp

_sum = jax.jit(lambda xs: jnp.sum(xs**2))


def report(step, value):
    print(f"step {step}: s = {value}")


def train(xs):
    s = 0.0
    for t, x in enumerate(np.asarray(xs)):
        s = np.float32(s + x * x)
        report(t, s)
    return _sum(xs)


train.lower = _sum.lower
train.trace = _sum.trace
