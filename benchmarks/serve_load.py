"""Load benchmark of ``fiveup serve``: hints through the API against the library, in one run.

The server runs as ``fiveup serve`` in its own process on 127.0.0.1 (a free port). On the
hint suite's positions (benchmarks/data/hint_positions.json, default budget: 48 worlds, both
currencies):

1. the library, as ``fiveup hint`` calls it: the observation and past rounds from the record, then
   ``Hinter(threads=1).hint`` (what one API request does), timed as the hint alone and as
   record -> observation -> hint;
2. the API, one client at a time: ``POST /api/hint`` with the position's record;
3. the API under load: CLIENTS concurrent clients posting the same hints, while one analysis
   (``POST /api/analyses``, the standard budget, a whole game) runs in the background and a
   poller asks ``GET /api/health`` every 25 ms.

Reported: hint latency (median, p95) in each phase; ``/api/health`` latency (median, p99)
idle and under load; the analysis's progress. Every request loop is bounded in count and time.

    python benchmarks/serve_load.py --positions 40 --clients 8 --out benchmarks/results/serve_load.json
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def pct(values, q):
    s = sorted(values)
    if not s:
        return None
    k = min(len(s) - 1, max(0, round(q / 100 * (len(s) - 1))))
    return s[k]


def stats(ms) -> dict:
    return {"n": len(ms), "median": round(statistics.median(ms), 2), "p95": round(pct(ms, 95), 2),
            "p99": round(pct(ms, 99), 2), "max": round(max(ms), 2)}


class Client:
    """One keep-alive HTTP connection to the server."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)

    def call(self, method: str, path: str, body=None):
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        t = time.perf_counter()
        try:
            self.conn.request(method, path, body=data, headers=headers)
            r = self.conn.getresponse()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            # the server closes a keep-alive connection idle for 5 s: one new connection
            self.conn.close()
            t = time.perf_counter()
            self.conn.request(method, path, body=data, headers=headers)
            r = self.conn.getresponse()
        payload = r.read()
        ms = 1000 * (time.perf_counter() - t)
        if r.status != 200:
            raise RuntimeError(f"{method} {path}: {r.status} {payload[:200]!r}")
        return json.loads(payload), ms


def start_server() -> tuple:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "fiveup_solver.cli", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=sys.stderr, text=True)
    proc.stdout.readline()
    deadline = time.monotonic() + 30
    while True:
        try:
            Client(port).call("GET", "/api/health")
            return proc, port
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise SystemExit("the server did not start")
            time.sleep(0.1)


def analysis_record(seed: int) -> dict:
    """A whole 2-player game of level5 bots (seeded): what the background analysis reads."""
    from fiveup_solver.selfplay import play_game
    return play_game(2, seed, ["level5", "level5"], bot_seed=seed).to_record()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=40, help="hint positions from the suite (1..200)")
    p.add_argument("--clients", type=int, default=8, help="concurrent hint clients under load")
    p.add_argument("--rounds", type=int, default=1, help="times each client goes through the positions")
    p.add_argument("--seed", type=int, default=1, help="hint seed and the analysed game's seed")
    p.add_argument("--max-seconds", type=float, default=600, help="stop the load phase after this long")
    p.add_argument("--out", default=None, help="write the report (JSON) here")
    args = p.parse_args(argv)
    if not 1 <= args.positions <= 200 or not 1 <= args.clients <= 64 or not 1 <= args.rounds <= 10:
        raise SystemExit("error: --positions 1..200, --clients 1..64, --rounds 1..10")

    from fiveup_solver.record import past_observations
    from fiveup_solver.hint import Hinter
    from fiveup_solver.record import check_record, observation_at
    suite = json.loads((HERE / "data" / "hint_positions.json").read_text())[: args.positions]
    bodies = [{"record": q["record"], "seat": q["seat"], "round": q["round"], "action": q["action"],
               "seed": args.seed} for q in suite]

    # 1. the library, one search thread and a fresh Hinter per hint (what one API request does)
    lib_hint, lib_total, lib_json = [], [], []
    for b in bodies:
        t = time.perf_counter()
        record = check_record(b["record"])
        obs = observation_at(record, b["seat"], b["round"], b["action"], check=False)
        past = past_observations(record, b["seat"], b["round"])      # the default beliefs read the past rounds
        h = Hinter(threads=1).hint(obs, seed=args.seed, past=past)
        lib_total.append(1000 * (time.perf_counter() - t))
        lib_hint.append(1000 * h.seconds)
        lib_json.append(h.to_dict())

    proc, port = start_server()
    try:
        health = Client(port)
        idle_health = [health.call("GET", "/api/health")[1] for _ in range(200)]
        # 2. the API, one client at a time
        one = Client(port)
        api_idle, same = [], 0
        for b, lib in zip(bodies, lib_json):
            res, ms = one.call("POST", "/api/hint", b)
            api_idle.append(ms)
            # the API's answer is the library's (same seed, same worlds), timing aside
            same += all(res[k] == lib[k] for k in res if k != "seconds")

        # 3. under load: CLIENTS hint clients, one analysis, the health poller
        record = analysis_record(args.seed)
        job, _ = one.call("POST", "/api/analyses", {"record": record})
        stop = threading.Event()
        loaded_health, loaded_hints, errors = [], [], []
        deadline = time.monotonic() + args.max_seconds

        def poll():
            c = Client(port)
            while not stop.is_set() and time.monotonic() < deadline:
                loaded_health.append(c.call("GET", "/api/health")[1])
                time.sleep(0.025)

        def hinting(k):
            c = Client(port)
            order = list(range(len(bodies)))
            random.Random(f"{args.seed}/{k}").shuffle(order)
            for _ in range(args.rounds):
                for i in order:
                    if time.monotonic() > deadline:
                        return
                    try:
                        loaded_hints.append(c.call("POST", "/api/hint", bodies[i])[1])
                    except (RuntimeError, OSError) as e:
                        errors.append(str(e)[:200])
        poller = threading.Thread(target=poll)
        poller.start()
        t0 = time.perf_counter()
        workers = [threading.Thread(target=hinting, args=(k,)) for k in range(args.clients)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        load_seconds = time.perf_counter() - t0
        progress_at_end = one.call("GET", f"/api/analyses/{job['id']}")[0]
        stop.set()
        poller.join()
        # the analysis to its end (bounded), for its duration on a busy-then-idle server
        while progress_at_end["status"] in ("queued", "running") and time.monotonic() < deadline + 600:
            time.sleep(0.5)
            progress_at_end = one.call("GET", f"/api/analyses/{job['id']}")[0]
        analysis_seconds = time.perf_counter() - t0
    finally:
        if proc.poll() is not None:
            print(f"the server exited with status {proc.returncode}", file=sys.stderr)
        proc.terminate()
        proc.wait(timeout=20)

    report = {
        "machine": {"cores": os.cpu_count(), "python": sys.version.split()[0]},
        "positions": len(bodies), "clients": args.clients, "rounds": args.rounds, "seed": args.seed,
        "hint_budget": "default: 48 worlds, 20000 nodes per world, both currencies, one search thread",
        "library_hint_ms": stats(lib_hint), "library_record_to_hint_ms": stats(lib_total),
        "api_hint_one_client_ms": stats(api_idle), "api_answers_equal_to_library": f"{same}/{len(bodies)}",
        "api_hint_under_load_ms": stats(loaded_hints), "hints_under_load": len(loaded_hints),
        "hints_per_second_under_load": round(len(loaded_hints) / load_seconds, 2), "errors": errors[:5],
        "health_idle_ms": stats(idle_health), "health_under_load_ms": stats(loaded_health),
        "analysis": {"actions": progress_at_end.get("total"), "status": progress_at_end["status"],
                     "seconds_from_load_start": round(analysis_seconds, 1)},
        "load_seconds": round(load_seconds, 1),
    }
    text = json.dumps(report, indent=1)
    if args.out:
        Path(args.out).write_text(text + "\n")
    print(text)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
