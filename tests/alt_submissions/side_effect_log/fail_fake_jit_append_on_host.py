# expect: logs_each_call
# Wrong: appends on the host, then calls an inner jitted function, and fakes .lower/.trace; the grader jits compute
# itself, so the append runs while tracing. The message must say the grader wrapped compute in jax.jit.
import jax

log = []

_double = jax.jit(lambda x: x * 2)


def compute(x):
    log.append(x)
    return _double(x)


compute.lower = _double.lower
compute.trace = _double.trace
