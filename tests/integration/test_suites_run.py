"""``gptnt suite run`` end to end with scripted players: every pairing of a cross-play suite, the
solo, no-manual and parametric time-limit suites, and progress lines when piped."""

from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path

import pytest
from child_server import GPTNT
from standin_players import Latency, wait_in_flight, waiting_player

from gptnt.records import Ledger, read_run_info, read_summary


def _suite(*args: str, launch: str = "task") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GPTNT_REDIS_URL"}
    return subprocess.run(
        [*GPTNT, "suite", "run", *args, "--launch", launch, "--progress-every", "1"],
        check=False, capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip


def _summaries(run_dir: Path) -> list:
    return [read_summary(run_dir / e.episode_dir) for e in Ledger(run_dir).latest().values()]


@pytest.mark.slow
def test_cross_play_with_two_scripted_players_plays_all_four_pairings(tmp_path: Path) -> None:
    done = _suite("cross-play", "--players", "oracle,random", "--only", "Wires-234",
                  "--games", "2", "--out", str(tmp_path), launch="warm")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "4 episodes; no model calls" in " ".join(done.stdout.split())
    summaries = _summaries(tmp_path / "suite-cross-play-oracle-random")
    pairings = {s.conditions.pairing: s for s in summaries}
    assert set(pairings) == {"oracle/oracle", "oracle/random", "random/oracle", "random/random"}
    roles = {p: [(i.role, i.policy) for i in s.players] for p, s in pairings.items()}
    assert roles["random/oracle"] == [("defuser", "random"), ("expert", "oracle")]
    assert pairings["oracle/oracle"].outcome == "solved"  # the privileged pair always defuses
    assert all(s.conditions.suite == "cross-play" for s in summaries)
    # Warm launch: every service was its own (forked) process with its own log.
    run_dir = tmp_path / "suite-cross-play-oracle-random"
    for entry in Ledger(run_dir).latest().values():
        logs = sorted(p.name for p in (run_dir / entry.episode_dir / "logs").iterdir())
        assert logs == ["defuser.log", "expert.log", "game.log"]
    # Piped output: plain progress lines with done/total, outcomes, cost and ETA.
    lines = [line for line in done.stdout.splitlines() if " done, " in line]
    assert lines and lines[-1].startswith("4/4 done,") and "crashed" in lines[-1]
    assert "$0.00 spent" in lines[-1] and "ETA" in lines[-1]
    assert "\x1b[" not in done.stdout  # no terminal control codes when piped


@pytest.mark.slow
def test_solo_no_manual_and_parametric_suites_run_end_to_end(tmp_path: Path) -> None:
    for args in (
        ["solo", "--players", "oracle,random", "--only", "Wires-234"],
        ["solo-no-manual", "--only", "Wires-234"],
        ["parametric-time", "--only", "Wires-234", "--modes", "sync"],
    ):
        done = _suite(*args, "--games", "2", "--out", str(tmp_path))
        assert done.returncode == 0, done.stderr
    solo = {s.conditions.pairing: s for s in _summaries(tmp_path / "suite-solo-oracle-random")}
    assert set(solo) == {"solo:oracle", "solo:random"}
    for s in solo.values():
        assert [p.role for p in s.players] == ["defuser"] and s.turns.get("expert", 0) == 0
        assert s.players[0].seat == "solo" and s.conditions.solo
    assert solo["solo:oracle"].outcome == "solved"  # the oracle has the rules in its head
    (bare,) = _summaries(tmp_path / "suite-solo-no-manual-oracle")
    assert bare.players[0].seat == "solo-no-manual" and bare.conditions.no_manual
    timed = sorted(_summaries(tmp_path / "suite-parametric-time-oracle"),
                   key=lambda s: s.conditions.time_factor)  # fmt: skip
    assert [(s.conditions.time_factor, s.time_limit) for s in timed] == [
        (0.5, 40.0), (1.0, 81.0), (2.0, 162.0),
    ]  # fmt: skip
    assert all(s.outcome == "solved" for s in timed)
    info = read_run_info(tmp_path / "suite-parametric-time-oracle")
    assert info is not None and info.episodes == 3 and not info.capped


@pytest.mark.slow
def test_ctrl_c_during_a_suite_run_records_the_episodes_in_flight_and_exits_130(
    tmp_path: Path,
) -> None:
    """SIGINT to the suite's whole process group (what Ctrl-C at a terminal sends): the
    episodes in flight (multi-module missions: long enough to be cut) end ``interrupted`` with
    their records, no traceback, exit 130."""
    import signal
    import time

    from gptnt.records import read_fleet

    env = {k: v for k, v in os.environ.items() if k != "GPTNT_REDIS_URL"}
    suite = subprocess.Popen(
        [*GPTNT, "suite", "run", "multi", "--limit", "4", "--modes", "sync", "--games", "2",
         "--launch", "task", "--run", "stopped", "--out", str(tmp_path)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    run_dir = tmp_path / "stopped"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and suite.poll() is None:
        fleet = read_fleet(run_dir)
        if fleet is not None and fleet.in_flight:
            break
        time.sleep(0.2)
    os.killpg(suite.pid, signal.SIGINT)
    _, stderr = suite.communicate(timeout=300)
    assert suite.returncode == 130, stderr
    assert "Traceback" not in stderr and "interrupted by SIGINT" in stderr
    entries = list(Ledger(run_dir).entries())
    stopped = [e for e in entries if e.status == "interrupted"]
    assert stopped and all(e.reason == "interrupted by SIGINT" for e in stopped)
    for entry in entries:  # every attempt's records are in the run, each counted once
        summary = read_summary(run_dir / entry.episode_dir)
        assert summary is not None and summary.outcome == entry.outcome
    assert len({(e.episode_key, e.attempt) for e in entries}) == len(entries)


@pytest.mark.slow
def test_a_second_ctrl_c_stops_at_once_and_the_run_still_resumes(tmp_path: Path) -> None:
    """Ctrl-C twice (SIGINT to the whole process group): the first starts the clean stop, the
    second leaves at once with 130 (128 + SIGINT), killing every process the suite started;
    what was recorded reads, and the same command then plays the rest to the end."""
    import signal
    import time

    from gptnt.records import read_fleet

    env = {k: v for k, v in os.environ.items() if k != "GPTNT_REDIS_URL"}
    command = [*GPTNT, "suite", "run", "multi", "--limit", "2", "--modes", "sync", "--games",
               "2", "--launch", "process", "--run", "twice", "--out", str(tmp_path)]  # fmt: skip
    suite = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)  # fmt: skip
    run_dir = tmp_path / "twice"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and suite.poll() is None:
        fleet = read_fleet(run_dir)
        if fleet is not None and fleet.in_flight:
            break
        time.sleep(0.2)
    started = _descendants(suite.pid)
    assert started  # the local cluster's workers, the services of their games, Redis
    os.killpg(suite.pid, signal.SIGINT)
    time.sleep(0.5)
    os.killpg(suite.pid, signal.SIGINT)
    second = time.monotonic()
    _, stderr = suite.communicate(timeout=60)
    print(f"exited {time.monotonic() - second:.1f} s after the second SIGINT")
    assert suite.returncode == 130, stderr
    assert "Traceback" not in stderr, stderr
    assert "SIGINT again: stopped at once" in stderr, stderr
    time.sleep(1.0)
    assert not [pid for pid in started if _alive(pid)], "processes outlived the suite"
    for entry in Ledger(run_dir).entries():  # whatever was recorded is whole
        summary = read_summary(run_dir / entry.episode_dir)
        assert summary is not None and summary.outcome == entry.outcome
    again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600,
                           check=False)  # fmt: skip
    assert again.returncode == 0, again.stderr[-3000:]
    latest = Ledger(run_dir).latest()
    assert len(latest) == 2 and {e.status for e in latest.values()} == {"finished"}


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            line = next(x for x in status.read_text().splitlines() if x.startswith("PPid:"))
        except (OSError, StopIteration):
            continue
        children.setdefault(int(line.split()[1]), []).append(int(status.parent.name))
    found, todo = [], [pid]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found


def _alive(pid: int) -> bool:
    try:
        state = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines()
                     if x.startswith("State:"))  # fmt: skip
    except (OSError, StopIteration):
        return False
    return "zombie" not in state


@pytest.mark.slow
def test_a_local_worker_that_stalls_longer_than_the_fleet_ttl_is_not_lost(tmp_path: Path) -> None:
    """A local worker whose process makes no progress for 45 s (SIGSTOP: what a loaded machine
    does to a heartbeat, seen at load 15 on 2 cores) is not a lost host: its attempt finishes as
    attempt 1, no ``crashed: worker lost`` and no retry. (With the fleet's ``worker-ttl`` of
    20 s, checked every 20 s, a 45 s stall always restarted the worker: the resume losses of
    the double Ctrl-C test.)"""
    import signal
    import time

    env = {k: v for k, v in os.environ.items() if k != "GPTNT_REDIS_URL"}
    # A model that waits, answering in about a second: 27 turns in flight, long enough to be
    # seen in fleet.json (the oracle's whole episode can pass between two rewrites).
    with waiting_player(tmp_path, Latency(1.0, 0.2, 0.5, 2.0)) as (player, reach):
        suite = subprocess.Popen(
            [*GPTNT, "suite", "run", "solo-no-manual", "--only", "Wires-234", "--games", "1",
             "--launch", "task", "--run", "stalled", "--out", str(tmp_path), "--retries", "0",
             "--players", str(player), "--yes"],
            env={**env, **reach}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        run_dir = tmp_path / "stalled"
        fleet = wait_in_flight(suite, run_dir)
        worker = int(fleet.in_flight[0].worker.rsplit("-", 1)[1])
        os.kill(worker, signal.SIGSTOP)
        try:
            time.sleep(45)
        finally:
            with contextlib.suppress(ProcessLookupError):  # gone: the scheduler restarted it
                os.kill(worker, signal.SIGCONT)
        _, stderr = suite.communicate(timeout=300)
    entries = list(Ledger(run_dir).entries())
    assert [(e.attempt, e.status) for e in entries] == [(1, "finished")], (entries, stderr)
    assert suite.returncode == 0, stderr


@pytest.mark.slow
def test_a_local_suite_writes_nothing_outside_its_run_directory(tmp_path: Path) -> None:
    """The local cluster stages its records inside the run directory, not in the system's
    temporary folder: a suite killed with SIGKILL (or a second Ctrl-C) cannot leave a staging
    folder behind there, and what a killed run left in the run directory the next run removes."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    run_dir = tmp_path / "out" / "clean"
    (run_dir / ".staging" / "clean" / "left-by-a-killed-run").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k != "GPTNT_REDIS_URL"}
    done = subprocess.run(
        [*GPTNT, "suite", "run", "solo-no-manual", "--only", "Wires-234", "--games", "1",
         "--launch", "task", "--run", "clean", "--out", str(tmp_path / "out")],
        env={**env, "TMPDIR": str(scratch)}, capture_output=True, text=True, timeout=300,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [(e.attempt, e.status) for e in Ledger(run_dir).entries()] == [(1, "finished")]
    assert not list(scratch.iterdir()), list(scratch.iterdir())
    assert not (run_dir / ".staging").exists()
