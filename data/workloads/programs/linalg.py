# NumPy dense linear algebra (workload "numpy" of data/workloads): LU solves, matrix products, a
# Cholesky factorisation, least squares, a symmetric eigensolver and an FFT, in double precision
# on matrices from a fixed-seed generator.
import os

# One BLAS thread whichever BLAS library the system's alternatives select (read at import).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

rng = np.random.default_rng(20240611)
n = 240
checks = []
for step in range(8):
    a = rng.standard_normal((n, n)) + n * np.eye(n)
    b = rng.standard_normal((n, 8))
    x = np.linalg.solve(a, b)  # LU with partial pivoting (dgesv)
    checks.append(float(np.abs(a @ x - b).max()))
    c = a @ a.T  # matrix product (dgemm), symmetric positive definite
    l = np.linalg.cholesky(c)
    checks.append(float(np.abs(l @ l.T - c).max() / n))
    w = np.linalg.eigvalsh(c[:96, :96])  # symmetric eigenvalues (dsyevd)
    checks.append(float(w[-1] / w[0]))
    coef, *_ = np.linalg.lstsq(a[:, :40], b[:, 0], rcond=None)  # SVD least squares
    checks.append(float(coef.sum()))
    signal = np.sin(np.linspace(0.0, 40.0 * np.pi, 1 << 14)) + rng.standard_normal(1 << 14) * 0.1
    spectrum = np.fft.rfft(signal)
    checks.append(float(np.abs(spectrum).argmax()))
print(" ".join("%.6g" % v for v in checks))
