"""Worker for the multiprocessing test (a module, so that spawned children can import it)."""

from __future__ import annotations

import numpy as np


def run_pipeline(job):
    """Runs a (pickled-in) pipeline on a chunk of lines; returns plain NumPy arrays."""
    pipe, lines = job
    out = pipe(lines)
    return {k: (np.from_dlpack(v).copy() if hasattr(v, "__dlpack__") else list(v)) for k, v in out.items()}
