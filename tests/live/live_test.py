#!/usr/bin/env python3
"""One test of `pivot serve` (tests/live/CMakeLists.txt): starts the server on a free port
(--port 0, the address read from its first line on stdout), runs one live_client scenario
against it, stops the server with SIGINT (Ctrl-C) and checks that it ended cleanly (exit 0).

With --record DIR the server records; the test then re-runs DIR/scene.json with `pivot run`
and checks that the re-run's final hash is the hash of the live engine state the server
printed when it stopped (and the recorded folder's summary.json says the same).
"""
import argparse
import json
import re
import signal
import subprocess
import tempfile
import sys
import time
from pathlib import Path


def peak_rss_mb(pid):
    """the process's peak resident memory so far (VmHWM), MB"""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024.0
    fail("no VmHWM in /proc/PID/status")


def fail(message):
    print(f"FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--pivot", required=True)
    p.add_argument("--client", required=True)
    p.add_argument("--scene", required=True)
    p.add_argument("--scenario", required=True)
    p.add_argument("--body", default="")
    p.add_argument("--record", default="")
    p.add_argument("--max-rss-growth-mb", type=float, default=0.0,
                   help="fail when the server's peak memory grows more than this during the "
                        "client's scenario")
    a = p.parse_args()

    cmd = [a.pivot, "serve", a.scene, "--port", "0"]
    if a.record:
        cmd += ["--record", a.record]
    # the server's log goes to a file: a pipe nobody reads during the scenario would fill and
    # block the server on its next log line
    log = tempfile.TemporaryFile(mode="w+")

    def server_log():
        log.seek(0)
        return log.read()

    server = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        line = server.stdout.readline()
        m = re.search(r"http://([0-9.]+):(\d+)/", line)
        if not m:
            fail(f"no address on the server's first line: {line!r}; stderr: {server_log()}")
        host, port = m.group(1), m.group(2)
        print(f"server at {host}:{port}")
        rss0 = peak_rss_mb(server.pid)
        client = subprocess.run([a.client, host, port, a.scenario] + ([a.body] if a.body else []),
                                capture_output=True, text=True, timeout=120)
        print(client.stdout, end="")
        if client.returncode != 0:
            fail(f"live_client {a.scenario} exited with {client.returncode}: {client.stderr}")
        if server.poll() is not None:
            fail(f"the server ended during the test: {server_log()}")
        if a.max_rss_growth_mb > 0:
            growth = peak_rss_mb(server.pid) - rss0
            print(f"server peak memory grew {growth:.1f} MB (limit {a.max_rss_growth_mb} MB)")
            if growth > a.max_rss_growth_mb:
                fail(f"the server's memory grew {growth:.1f} MB during the scenario")
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGINT)
    try:
        out, _ = server.communicate(timeout=300)
        err = server_log()
    except subprocess.TimeoutExpired:
        server.kill()
        fail("the server did not stop within 300 s of SIGINT")
    if server.returncode != 0:
        fail(f"the server exited with {server.returncode} after SIGINT: {err}")
    stopped = re.search(r"stopped at step (\d+), final hash ([0-9a-f]{16})", out)
    if not stopped:
        fail(f"no final line from the server: {out!r}")
    print(f"server stopped cleanly at step {stopped.group(1)}, hash {stopped.group(2)}")

    if a.record:
        live = re.search(r"live final hash ([0-9a-f]{16})", out)
        if not live or live.group(1) != stopped.group(2):
            fail(f"the recording's live hash is missing or differs: {out!r}")
        record = Path(a.record)
        for f in ["scene.json", "trajectory.csv", "metrics.csv", "summary.json", "shapes.json"]:
            if not (record / f).is_file():
                fail(f"the recording has no {f}")
        scene = json.loads((record / "scene.json").read_text())
        kinds = {e["type"] for e in scene.get("interactions", [])}
        print(f"recorded interactions: {len(scene['interactions'])} of types {sorted(kinds)}")
        rerun = record.parent / (record.name + "-rerun")
        r = subprocess.run([a.pivot, "run", str(record / "scene.json"), "--out", str(rerun),
                            "--quiet"], capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            fail(f"pivot run of the recording exited with {r.returncode}: {r.stderr}")
        rerun_hash = json.loads((rerun / "summary.json").read_text())["final_state_hash"]
        print(f"live hash {live.group(1)}, pivot run of the recording {rerun_hash}")
        if rerun_hash != live.group(1):
            fail("pivot run of the recording does not reproduce the live final hash")
        steps = json.loads((rerun / "summary.json").read_text())["steps"]
        if steps != int(stopped.group(1)):
            fail(f"the re-run took {steps} steps, the live run {stopped.group(1)}")
    print("PASSED")


if __name__ == "__main__":
    main()
