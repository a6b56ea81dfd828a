"""The device runner: verify, bench, profile, ir. Imports only torch, triton, numpy and the stdlib."""
