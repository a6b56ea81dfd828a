"""Bad candidate: never returns."""


def run(x, y):
    while True:
        pass
