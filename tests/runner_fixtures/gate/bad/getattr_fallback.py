"""Gate fixture (vecadd): computes with torch through a name built at run time, which the AST check cannot see."""
import torch


def run(x, y):
    op = getattr(torch, "ad" + "d")
    return op(x, y)
