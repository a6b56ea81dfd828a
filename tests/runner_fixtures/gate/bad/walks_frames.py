"""Gate fixture (vecadd): takes the reference's answer from the runner's stack frame instead of computing."""
import sys


def run(x, y):
    frame = sys._getframe(1)
    while frame is not None:
        for value in frame.f_locals.values():
            if getattr(value, "shape", None) == x.shape and value is not x and value is not y:
                return value
        frame = frame.f_back
    raise RuntimeError("no answer found")
