"""Run independent games in worker processes, appending each result to a JSON
Lines file as it finishes, so a long measurement can stop and resume.

Workers get one search thread each: two processes keep both cores busy with
the Python work between searches too.
"""
from __future__ import annotations

import json
import os
from concurrent.futures import ProcessPoolExecutor


def init_worker():
    from fiveup_solver import hint
    hint._default = hint.Hinter(threads=1)


def finished(out: str, key) -> set:
    """Keys of the results already in `out` (``key(row)`` per line)."""
    done = set()
    if os.path.exists(out):
        with open(out) as f:
            for line in f:
                done.add(key(json.loads(line)))
    return done


def run_jobs(play, jobs: list, out: str, workers: int, desc: str, progress: bool = True) -> None:
    """``play(job) -> dict`` for every job, in `workers` processes, appended to `out`."""
    if not jobs:
        return
    from tqdm import tqdm
    bar = tqdm(total=len(jobs), desc=desc, unit="game", disable=not progress)
    with ProcessPoolExecutor(workers, initializer=init_worker) as pool, open(out, "a") as f:
        for r in pool.map(play, jobs, chunksize=1):
            f.write(json.dumps(r) + "\n")
            f.flush()
            bar.update(1)
    bar.close()
