# expect: in_jit
# No jit at all: nothing compiled, nothing cached, and nothing done by compiled code either.
import numpy as np


def evaluate(params, task):
    losses = []
    for x, y in task:
        features = np.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
        pred = features.mean(axis=1) @ params["w_out"] + params["b_out"]
        losses.append(float(np.mean((pred - y) ** 2)))
    return sum(losses) / len(losses)
