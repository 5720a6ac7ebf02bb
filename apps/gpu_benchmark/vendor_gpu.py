#!/usr/bin/env python3
"""The vendor libraries' time for one operator shape on the GPU (fp32, TF32 off).

    vendor_gpu.py gmm B N M K            -> cuBLAS (torch.bmm)
    vendor_gpu.py c2d N H W CI CO k s p  -> cuDNN (torch conv2d, NHWC as the c2d generator)

Prints one line `<library> <min_ms> <median_ms>`: samples of back-to-back
calls, each sample ended by a device synchronisation, as ansor_runner
times a Halide pipeline. Runs where PyTorch sees a CUDA device.
"""
import statistics
import sys
import time

import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.backends.cudnn.benchmark = True


def time_calls(fn, seconds=0.2, min_calls=10):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    # Calls per sample so one sample lasts about seconds / 10.
    t0 = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    one = max(time.perf_counter() - t0, 1e-6)
    per_sample = max(1, int(seconds / 10 / one))
    samples = []
    while len(samples) < min_calls:
        t0 = time.perf_counter()
        for _ in range(per_sample):
            fn()
        torch.cuda.synchronize()
        samples.append((time.perf_counter() - t0) / per_sample * 1e3)
    return min(samples), statistics.median(samples)


def main(argv):
    op, dims = argv[1], [int(v) for v in argv[2:]]
    dev = "cuda"
    if op == "gmm":
        b, n, m, k = dims
        lhs = torch.randn(b, n, k, device=dev)
        rhs = torch.randn(b, k, m, device=dev)
        lib, fn = "cuBLAS", lambda: torch.bmm(lhs, rhs)
    elif op == "c2d":
        n, h, w, ci, co, k, s, p = dims
        x = torch.randn(n, ci, h, w, device=dev).to(memory_format=torch.channels_last)
        wt = torch.randn(co, ci, k, k, device=dev).to(memory_format=torch.channels_last)
        lib, fn = "cuDNN", lambda: torch.nn.functional.conv2d(x, wt, stride=s, padding=p)
    else:
        sys.exit(f"vendor_gpu.py: unknown operator '{op}' (gmm or c2d)")
    best, median = time_calls(fn)
    print(f"{lib} {best:.4f} {median:.4f}")


if __name__ == "__main__":
    main(sys.argv)
