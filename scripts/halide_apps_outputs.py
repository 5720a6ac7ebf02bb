"""Reading RunGen's raw outputs and comparing a variant's with the hand
schedule's, for scripts/halide_apps_benchmark.py (the rule is in its
docstring)."""
import numpy as np

FLOAT_TOLERANCE, FLOAT_BAD_SHARE = 1e-3, 1e-3
INT_TOLERANCE, INT_BAD_SHARE = 1, 0.05

TMP_TYPES = [np.float32, np.float64, np.uint8, np.int8, np.uint16, np.int16,
             np.uint32, np.int32, np.uint64, np.int64]


def load_tmp(path):
    """An ImageStack .tmp file (RunGen's raw format): five int32s (four
    extents, a type code), then the planar payload."""
    with open(path, "rb") as f:
        header = np.fromfile(f, dtype=np.int32, count=5)
        dtype = TMP_TYPES[header[4]]
        data = np.fromfile(f, dtype=dtype)
    shape = tuple(int(e) for e in header[:4])
    return data.reshape(shape[::-1])


def compare_arrays(ref, out):
    """(ok, detail) under the rule in the docstring."""
    if ref.shape != out.shape or ref.dtype != out.dtype:
        return False, f"shape/type {out.shape} {out.dtype}, hand {ref.shape} {ref.dtype}"
    n = ref.size
    if np.issubdtype(ref.dtype, np.floating):
        r, o = ref.astype(np.float64), out.astype(np.float64)
        both_nan = np.isnan(r) & np.isnan(o)
        finite = np.abs(r[np.isfinite(r)])
        scale = finite.max() if finite.size else 0.0
        denom = np.maximum(np.abs(r), max(1e-3 * scale, 1e-30))
        with np.errstate(invalid="ignore", over="ignore"):
            rel = np.where(both_nan | (r == o), 0.0, np.abs(o - r) / denom)
        rel = np.where(np.isnan(rel), np.inf, rel)
        bad = int(np.count_nonzero(rel > FLOAT_TOLERANCE))
        detail = f"max rel err {float(rel.max()) if n else 0:.2e}, {bad}/{n} over {FLOAT_TOLERANCE:g}"
        return bad <= FLOAT_BAD_SHARE * n, detail
    diff = np.abs(out.astype(np.int64) - ref.astype(np.int64))
    worst = int(diff.max()) if n else 0
    differing = int(np.count_nonzero(diff))
    detail = f"max abs diff {worst}, {differing}/{n} differ"
    return worst <= INT_TOLERANCE and differing <= INT_BAD_SHARE * n, detail
