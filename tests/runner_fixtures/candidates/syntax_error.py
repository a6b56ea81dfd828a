"""Bad candidate: does not parse."""


def run(x, y)
    return x
