"""Bad candidate: writes through a near-NULL pointer, so the process dies with SIGSEGV."""
import ctypes


def run(x, y):
    ctypes.memset(16, 0, 1)
