"""Row-to-columnar conversion of a Spark UnsafeRow-style batch (spark-rapids GpuRowToColumnarExec ->
spark-rapids-jni RowConversion convert_from_rows, JCUDF row format).

A JCUDF row packs the fixed-width columns in schema order, each aligned to its own size, followed by
one validity bit per column (ceil(C / 8) bytes), the whole row padded to a multiple of 8 bytes. The
batch here has 16 non-nullable 4-byte columns (8 INT32, 8 FLOAT32, carried as 32-bit words): 64 bytes
of data + 2 validity bytes -> 72-byte rows (18 words). The target schema is non-nullable, so the
validity bytes are not read and no null masks are built. Input: the row buffer viewed as int32
words [N, 18]; output: the 16 columns, each contiguous, as int32 words [16, N].
"""
import torch

META = {
    "name": "jcudf_rows_to_columns",
    "level": 1,
    "category": "database",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 3000},
        "ragged": {"N": 4567},
        "large": {"N": 16_777_216},
    },
    "baseline_notes": "One program per 128 rows, 4 warps: loads the [128, 16] block of 4-byte fields row by row "
                      "(64 contiguous bytes per row) and stores it transposed into the 16 column buffers, the "
                      "compiler converting the layout through shared memory. No autotune.",
    "deterministic": True,
}
NUM_COLUMNS = 16
ROW_WORDS = 18  # 64 data bytes + 2 validity bytes, padded to 8 bytes = 72 bytes


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """The JCUDF row buffer as int32 words [N, 18] and the number of columns (int)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    rows = torch.empty(n, ROW_WORDS, dtype=torch.int32)
    rows[:, 0:8] = torch.randint(-(2**31), 2**31 - 1, (n, 8), generator=g, dtype=torch.int32)  # INT32 columns
    rows[:, 8:16] = (torch.randn(n, 8, generator=g) * 1000.0).view(torch.int32)  # FLOAT32 columns, raw bits
    rows[:, 16] = 0xFFFF  # validity bytes: all 16 columns valid; padding bytes zero
    rows[:, 17] = 0
    return rows.to(device), NUM_COLUMNS


def reference(rows: torch.Tensor, num_columns: int) -> torch.Tensor:
    return rows[:, :num_columns].t().contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": (4 * ROW_WORDS + 4 * NUM_COLUMNS) * n, "flops": 0}
