"""The task suite: one folder per task (reference, inputs, baseline Triton). Imports nothing heavy."""
