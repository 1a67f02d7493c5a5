# expect: no_leak
# A module-level number that takes the batch's total while tracing: it holds a tracer after the calls.
TOTAL = 0.0


def center(state, x):
    global TOTAL
    TOTAL = TOTAL + x.sum()
    count = state["count"] + x.shape[0]
    mean = state["mean"] + (x.sum(axis=0) - x.shape[0] * state["mean"]) / count
    return {"mean": mean, "count": count}, x - mean
