"""Bad candidate: raises from the host code."""


def run(x, y):
    raise ValueError("block size must divide n")
