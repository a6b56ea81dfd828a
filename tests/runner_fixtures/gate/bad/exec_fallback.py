"""Gate fixture (vecadd): computes with torch inside code built by exec, which the AST check cannot see."""
import torch

SOURCE = "def hidden(a, b):\n    return a.__add__(b)\n"
scope = {"torch": torch}
exec(SOURCE, scope)


def run(x, y):
    return scope["hidden"](x, y)
