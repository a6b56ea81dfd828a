"""The diagnosis ladder, the optimize loop and the runner.

Imports nothing heavy: `python -m diagnose.runner` must work on a host with only torch and triton.
"""
