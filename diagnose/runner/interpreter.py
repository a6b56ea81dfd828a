"""Fixes for two bugs of Triton 3.6's CPU interpreter (TRITON_INTERPRET=1) that make correct
kernels fail on the CPU; applied by the runner's child before any candidate is loaded.

1. With numpy >= 2.4, a scalar kernel argument used as a Python int (a `range(0, K, BK)`
   loop bound) raises "only 0-dimensional arrays can be converted to Python scalars":
   interpreter tensors get an `__index__` that reads their single element.
2. `tl.dot` on bfloat16 operands multiplies the raw 16-bit patterns: the operands are widened
   to float32 first, which is what the GPU's MMA does in effect.
3. A device-function call (`tl.max`, a helper @jit) patches triton.language for the interpreter and
   never restores it, so compiling a kernel for the GPU afterwards (the runner's sm_90 check) sees
   interpreter builtins: the call restores its patches when it returns.
Each fix is skipped when the interpreter no longer has the hook it patches (newer Triton).
"""

from __future__ import annotations


def patch_interpreter() -> list[str]:
    """Apply the fixes; returns the names of those applied."""
    try:
        import numpy as np
        import triton.runtime.interpreter as interp
    except ImportError:
        return []
    applied = []
    if hasattr(interp, "_patch_lang_tensor"):
        patch_tensor = interp._patch_lang_tensor

        def _patch_lang_tensor(tensor, scope):
            patch_tensor(tensor, scope)
            scope.set_attr(tensor, "__index__", lambda self: int(self.handle.data.reshape(-1)[0]))

        interp._patch_lang_tensor = _patch_lang_tensor
        applied.append("scalar-index")
    builder = getattr(interp, "InterpreterBuilder", None)
    if builder is not None and hasattr(builder, "create_dot") and hasattr(interp, "_convert_float"):
        create_dot = builder.create_dot

        def _create_dot(self, a, b, d, input_precision, max_num_imprecise_acc):
            import triton.language as tl

            if a.dtype.scalar == tl.bfloat16:
                def widen(h):
                    data = interp._convert_float(h.data, tl.bfloat16, tl.float32, None)
                    return interp.TensorHandle(data.view(np.float32), tl.float32)

                a, b = widen(a), widen(b)
            return create_dot(self, a, b, d, input_precision, max_num_imprecise_acc)

        builder.create_dot = _create_dot
        applied.append("bf16-dot")
    func = getattr(interp, "InterpretedFunction", None)
    if func is not None and hasattr(interp, "_patch_lang") and hasattr(interp, "InterpreterError"):
        def _call(self, *args, **kwargs):
            scope = interp._patch_lang(self.fn)
            fn = self.rewrite()
            try:
                return fn(*args, **kwargs)
            except Exception as e:
                raise interp.InterpreterError(repr(e)) from e
            finally:
                scope.restore()

        func.__call__ = _call
        applied.append("device-call-restore")
    return applied
