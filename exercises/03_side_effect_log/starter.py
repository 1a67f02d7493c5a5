import jax

log = []  # every call of compute must add its input here


@jax.jit
def compute(x):
    # TODO: this append runs only while JAX traces compute: once, and it stores a tracer, not the value.
    log.append(x)
    return x * 2


# Not graded: a scratch run (F6 in the app, `jittrainer run side_effect_log` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    for value in (1.0, 2.0, 3.0):
        compute(value)
    print(log)
