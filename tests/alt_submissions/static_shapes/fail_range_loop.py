# A Python loop needs a concrete trip count; n is a tracer.
def sum_first_n(x, n):
    total = 0.0
    for i in range(n):
        total = total + x[i]
    return total
