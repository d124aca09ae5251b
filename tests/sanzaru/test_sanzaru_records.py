"""A SANZARU run is a run of the shared record schema: its summaries are the shared ``Summary``
(with its ``sanzaru`` part), its events go through the one ``EpisodeWriter``, its ledger is the
shared ``Ledger``. So an interrupted suite resumes, a lost ledger is rebuilt from the summaries,
and ``gptnt report``, ``gptnt export``, the viewer and ``gptnt suite status`` read it as any run;
a summary of SANZARU's format before still reads."""

from __future__ import annotations

import asyncio
import csv
import json
from pathlib import Path

import pytest
from fake_openai import FakeServer, completion
from typer.testing import CliRunner

from gptnt.cli import app
from gptnt.players.config import PlayerConfig
from gptnt.records import Ledger, Summary, read_events, read_summary
from gptnt.records import SanzaruStarted as Started
from gptnt.sanzaru import Team, read_summaries, suite

VARIANTS = ["base-1", "haystack-1"]


def _model_team(server: FakeServer) -> Team:
    """A stand-in model team: every role speaks and cuts wire 1 (Blind's cut ends the episode),
    over real HTTP, so an episode waits on its calls and can be cut mid-play."""
    reply = completion('<calls>[{"call": "speak", "text": "cut 1"}, '
                       '{"call": "act", "op": "cut", "position": 1}]</calls>')  # fmt: skip
    server.replies = [(200, reply)] * 500
    config = PlayerConfig(model="vllm:stand-in", base_url=server.url, transport_retries=0)
    return Team("model", "stand-in", config, "weak")


async def _interrupted_suite(team: Team, run: Path) -> None:
    """The suite cancelled (as Ctrl-C cancels ``asyncio.run``'s task) when its first episode
    ends, with a second one in flight."""
    task: asyncio.Task[list[Summary]] | None = None

    def stop(_: Summary) -> None:
        assert task is not None
        task.cancel()

    task = asyncio.create_task(suite(team, run, variant_ids=VARIANTS, instances=2, repeats=1,
                                     concurrency=2, on_done=stop))  # fmt: skip
    with pytest.raises(asyncio.CancelledError):
        await task


def _lines(run: Path) -> list[tuple[str, int, str, str, str]]:
    return sorted((e.episode_key, e.attempt, e.status, e.outcome, e.episode_dir)
                  for e in Ledger(run).entries())  # fmt: skip


async def test_an_interrupted_suite_resumes(server: FakeServer, tmp_path: Path) -> None:
    run = tmp_path / "run"
    team = _model_team(server)
    await _interrupted_suite(team, run)
    first = _lines(run)
    assert sorted(x[2] for x in first) == ["finished", "interrupted"], first
    (stopped,) = [x for x in first if x[2] == "interrupted"]
    cut = read_summary(run / stopped[4])
    assert cut is not None and cut.outcome == "interrupted" and cut.sanzaru is not None
    assert cut.sanzaru.outcome == "interrupted" and cut.episode_id == Path(stopped[4]).name
    (done,) = [x for x in first if x[2] == "finished"]
    kept = (run / done[4] / "summary.json").read_bytes()

    calls = len(server.received)
    summaries = await suite(team, run, variant_ids=VARIANTS, instances=2, repeats=1)
    assert len(summaries) == 4 and all(s.outcome in ("solved", "strikeout") for s in summaries)
    assert (run / done[4] / "summary.json").read_bytes() == kept  # finished: kept, not replayed
    again = _lines(run)
    assert (stopped[0], 2, "finished") in {x[:3] for x in again}  # the cut one: its next attempt
    assert len(again) == len(first) + 3  # the cut one and the two never started
    assert len(server.received) - calls == 3 * 3  # three episodes of one round of three calls
    replayed = next(s for s in summaries if s.episode_id == f"{stopped[0]}-a2")
    assert replayed.attempt == 2 and replayed.sanzaru is not None

    # Every record is the shared schema: events read by the one reader, ids stamped by it.
    events = list(read_events(run / f"episodes/{replayed.episode_id}"))
    assert isinstance(events[0], Started) and events[0].schema_version == 6
    assert {e.episode_id for e in events} == {replayed.episode_id}
    assert [e.kind for e in events][-1] == "sanzaru_referee"
    assert {e.role for e in events if e.kind == "sanzaru_turn"} == {"deaf", "mute", "blind"}


async def test_a_killed_attempt_is_played_afresh_and_the_ledger_rebuilds(
    tmp_path: Path,
) -> None:
    run = tmp_path / "run"
    oracle, random = Team("oracle", "oracle"), Team("random", "random")
    await suite(oracle, run, variant_ids=VARIANTS, instances=2, repeats=1)
    await suite(random, run, variant_ids=VARIANTS, instances=1, repeats=2)
    before = _lines(run)
    assert len(before) == 4 + 4

    # A run killed after the events and before the summary: a folder, no summary, no line.
    ledger = run / "ledger.jsonl"
    lines = ledger.read_text().splitlines(keepends=True)
    killed = json.loads(lines[-1])
    ledger.write_text("".join(lines[:-1]))
    folder = run / killed["episode_dir"]
    (folder / "summary.json").unlink()
    assert (folder / "events.jsonl").stat().st_size > 0
    resumed = await suite(random, run, variant_ids=VARIANTS, instances=1, repeats=2)
    assert len(resumed) == 4 and _lines(run) == before  # the same attempt, started afresh
    started = [e for e in read_events(folder) if isinstance(e, Started)]
    assert len(started) == 1  # not appended to the killed attempt's log

    # The ledger lost: rebuilt from the summaries alone, line for line.
    ledger.unlink()
    assert Ledger(run).rebuild() == len(before)
    assert _lines(run) == before
    assert len(read_summaries([run])) == 8


async def test_report_export_viewer_and_status_read_a_sanzaru_run(tmp_path: Path) -> None:
    run = tmp_path / "run"
    await suite(Team("oracle", "oracle"), run, variant_ids=VARIANTS, instances=2, repeats=1)
    await suite(Team("random", "random"), run, variant_ids=["base-1"], instances=2, repeats=1)
    runner = CliRunner()

    out = tmp_path / "report"
    report = runner.invoke(app, ["report", str(run), "--out", str(out)])
    assert report.exit_code == 0, report.output
    assert "6 episodes" in report.output and "6 episode pages" in report.output
    with (out / "tables" / "outcomes.csv").open() as f:
        outcomes = list(csv.DictReader(f))
    oracle = [r for r in outcomes if "oracle" in str(r)]
    assert oracle and all("SANZARU oracle" in " ".join(r.values()) for r in oracle)
    key = "base-1-i1-r1-oracle.weak.dmb-a1"
    page = (out / "episodes" / "run" / f"{key}.html").read_text()
    summary = read_summary(run / "episodes" / key)
    assert summary is not None and summary.sanzaru is not None
    turns = [e for e in read_events(run / "episodes" / key) if e.kind == "sanzaru_turn"]
    assert f'data-turns="{len(turns)}"' in page and len(turns) == sum(summary.turns.values()) > 0
    assert "SANZARU variant base-1, instance 1" in page and "rounds " in page

    exported = tmp_path / "export"
    result = runner.invoke(app, ["export", str(run), "--out", str(exported), "--format", "csv"])
    assert result.exit_code == 0, result.output
    with (exported / "episodes.csv").open() as f:
        rows = {r["episode_id"]: r for r in csv.DictReader(f)}
    assert len(rows) == 6
    row = rows[key]
    assert row["mission_id"] == "base-1" and row["mode"] == "sync" and row["outcome"] == "solved"
    assert row["scored"] == "True" and row["repeat"] == "1" and row["schema_version"] == "6"
    assert row["pairing"] == "SANZARU oracle" and row["time_limit_s"] == ""
    assert row["solo"] == "False" and row["cost_usd"] == "0.0"
    with (exported / "turns.csv").open() as f:
        mine = [r for r in csv.DictReader(f) if r["episode_id"] == key]
    assert len(mine) == len(turns)
    assert [(r["role"], r["round"]) for r in mine] == [(t.role, str(t.round)) for t in turns]
    assert mine[0]["player"] == "oracle" and mine[0]["turn"] == "0" and mine[0]["action_name"]

    status = runner.invoke(app, ["suite", "status", str(run)])
    assert status.exit_code == 0, status.output
    assert "done 6, parked 0" in status.output


def test_a_summary_of_the_format_before_still_reads(tmp_path: Path) -> None:
    """SANZARU's version 2 (``kind: sanzaru_summary``, the key as its id): read as version 6,
    by the report, the judge's reader and the ledger rebuild alike."""
    key = "base-1-i1-r1-oracle.weak.dmb"
    folder = tmp_path / "episodes" / f"{key}-a1"
    folder.mkdir(parents=True)
    (folder / "summary.json").write_text(json.dumps({
        "kind": "sanzaru_summary", "schema_version": 2, "episode_id": key, "attempt": 1,
        "variant": "base-1", "family": "base", "subset": "core", "instance": 1, "repeat": 1,
        "team": "oracle", "hints": "weak", "solo": False, "thinking": None,
        "order": ["deaf", "mute", "blind"], "outcome": "wrong_action", "ending": "wrong_action",
        "rounds_used": 2, "rounds": 8, "bounces": 1, "failure_mode": "wrong_answer",
        "failure_stage": "reasoning", "failure_flags": [], "coded_by": "ground_truth",
        "candidates": [], "heuristic_mode": None, "cost_usd": None, "error": None,
        "started_at": 10.0, "ended_at": 12.0,
    }))  # fmt: skip
    harness = {"version": "0.9", "commit": None, "dirty": False}
    (folder / "events.jsonl").write_text("\n".join(json.dumps(e) for e in (
        {"kind": "sanzaru_started", "schema_version": 2, "episode_id": key, "attempt": 1,
         "variant": "base-1", "instance": 1, "repeat": 1, "team": "oracle", "hints": "weak",
         "solo": False, "thinking": None, "order": ["deaf", "mute", "blind"],
         "harness": harness, "settings": None, "at": 10.0},
        {"kind": "sanzaru_turn", "episode_id": key, "round": 1, "role": "deaf", "view": "v",
         "delivered": [], "raw": None, "calls": [{"call": "wait"}]},
        {"kind": "sanzaru_referee", "episode_id": key, "log": [], "cuts": []},
    )) + "\n")  # fmt: skip
    events = list(read_events(folder))
    assert [e.kind for e in events] == ["sanzaru_started", "sanzaru_turn", "sanzaru_referee"]
    assert {e.episode_id for e in events} == {folder.name}  # the key restamped as the id
    assert Ledger(tmp_path).rebuild() == 1
    (entry,) = Ledger(tmp_path).entries()
    assert (entry.episode_key, entry.status, entry.outcome) == (key, "finished", "strikeout")
    (s,) = read_summaries([tmp_path])
    assert s.episode_id == f"{key}-a1" and s.outcome == "strikeout" and s.mission_id == "base-1"
    assert s.sanzaru is not None and s.sanzaru.failure_mode == "wrong_answer"
    assert s.sanzaru.outcome == "wrong_action" and s.reason == "wrong_action"
    shown = CliRunner().invoke(app, ["sanzaru", "report", str(tmp_path)])
    assert shown.exit_code == 0, shown.output
    viewed = CliRunner().invoke(app, ["report", str(tmp_path), "--out", str(tmp_path.parent / "r")])
    assert viewed.exit_code == 0, viewed.output
    page = (tmp_path.parent / "r" / "episodes" / tmp_path.name / f"{key}-a1.html").read_text()
    assert 'data-turns="1"' in page and "failure wrong_answer" in page


def test_sanzaru_run_twice_is_two_attempts(tmp_path: Path) -> None:
    """``gptnt sanzaru run`` into a run directory plays the key's next attempt: the first
    attempt's records are kept, and the ledger has one line per attempt."""
    for _ in range(2):
        result = CliRunner().invoke(app, ["sanzaru", "run", "base-1", "--out", str(tmp_path)])
        assert result.exit_code == 0, result.output
    key = "base-1-i1-r1-oracle.weak.dmb"
    assert [(e.episode_key, e.attempt) for e in Ledger(tmp_path).entries()] == [(key, 1), (key, 2)]
    for n in (1, 2):
        s = read_summary(tmp_path / "episodes" / f"{key}-a{n}")
        assert s is not None and s.attempt == n and s.outcome == "solved"


def test_a_summary_whose_two_outcomes_disagree_is_refused() -> None:
    data = {
        "episode_id": "x-a1", "mission_id": "base-1", "mode": "sync", "outcome": "solved",
        "started_at": 0.0, "ended_at": 0.0,
        "sanzaru": {"variant": "base-1", "family": "base", "subset": "core", "instance": 1,
                    "repeat": 1, "team": "t", "hints": "weak", "solo": False, "thinking": None,
                    "outcome": "timed_out", "rounds_used": 8, "rounds": 8, "bounces": 0},
    }  # fmt: skip
    with pytest.raises(ValueError, match="not SANZARU's 'timed_out'"):
        Summary.model_validate(data)


async def test_suite_status_shows_a_sanzaru_suite_in_flight(tmp_path: Path) -> None:
    """The suite keeps ``fleet.json`` as a KTANE suite does: a held model call keeps an episode
    in flight while ``gptnt suite status`` is asked, then the stopped suite's view."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from gptnt.players.cassette import loopback_async
    from gptnt.records import read_fleet

    release = asyncio.Event()
    reply = completion('<calls>[{"call": "act", "op": "cut", "position": 1}]</calls>')

    async def held(request: Request) -> JSONResponse:
        await release.wait()
        return JSONResponse(reply)

    app_ = Starlette(routes=[Route("/v1/chat/completions", held, methods=["POST"])])
    run = tmp_path / "run"
    async with loopback_async(app_) as url:
        config = PlayerConfig(model="vllm:held", base_url=f"{url}/v1", transport_retries=0)
        task = asyncio.create_task(suite(Team("model", "held", config), run,
                                         variant_ids=["base-1"], instances=3, repeats=1,
                                         concurrency=2))  # fmt: skip
        async with asyncio.timeout(60):  # the calls are held: the state lasts until released
            while (view := read_fleet(run)) is None or len(view.in_flight) < 2:
                await asyncio.sleep(0.05)
        status = await asyncio.to_thread(CliRunner().invoke, app, ["suite", "status", str(run)])
        assert status.exit_code == 0, status.output
        assert "running" in status.output and "not running" not in status.output
        assert "queued 1, in flight 2, done 0" in status.output
        assert "base-1-i1-r1-held.weak.dmb" in status.output
        release.set()
        summaries = await task
    assert len(summaries) == 3
    view = read_fleet(run)
    assert view is not None and not view.active and view.done == 3 and not view.in_flight
    after = CliRunner().invoke(app, ["suite", "status", str(run)])
    assert "not running" in after.output and "in flight 0, done 3, parked 0" in after.output


async def test_the_harness_and_version_a_sanzaru_episode_was_written_by_reach_the_readers(
    tmp_path: Path,
) -> None:
    """The export's harness and schema columns and the report's run line read a SANZARU
    episode's first event (``SanzaruStarted``), as a KTANE episode's ``EpisodeStarted``; one of
    the format before says the version it was written under, not the reader's."""
    run = tmp_path / "run"
    await suite(Team("oracle", "oracle"), run, variant_ids=["base-1"], instances=1, repeats=1)
    (folder,) = (run / "episodes").iterdir()
    (first, *_) = read_events(folder)
    assert isinstance(first, Started)
    old = first.model_copy(update={"schema_version": 2, "episode_id": folder.name[:-3]})
    lines = (folder / "events.jsonl").read_text().splitlines()
    (run / "episodes" / "other-a1").mkdir()
    (run / "episodes" / "other-a1" / "events.jsonl").write_text(
        "\n".join([old.model_dump_json(), *lines[1:]]) + "\n"
    )
    (run / "episodes" / "other-a1" / "summary.json").write_bytes(
        (folder / "summary.json").read_bytes()
    )
    Ledger(run).rebuild()
    runner = CliRunner()
    exported = tmp_path / "export"
    result = runner.invoke(app, ["export", str(run), "--out", str(exported), "--format", "csv"])
    assert result.exit_code == 0, result.output
    with (exported / "episodes.csv").open() as f:
        rows = {r["episode_id"]: r for r in csv.DictReader(f)}
    assert rows[folder.name]["harness_version"] == first.harness.version
    assert rows[folder.name]["harness_commit"] == (first.harness.commit or "")
    assert (rows[folder.name]["schema_version"], rows["other-a1"]["schema_version"]) == ("6", "2")
    report = runner.invoke(app, ["report", str(run), "--out", str(tmp_path / "report")])
    assert report.exit_code == 0, report.output
    line = next(x for x in (tmp_path / "report" / "report.md").read_text().splitlines()
                if x.startswith("- run:"))  # fmt: skip
    assert f"record schema v2, v6; harness {first.harness.version} @" in line, line


async def test_a_sanzaru_episode_whose_summary_is_unreadable_stays_its_teams(
    tmp_path: Path,
) -> None:
    """A torn summary: the episode is counted (not scored) under its team, variant and mode
    from its first event, not under a KTANE-looking ``? × none (solo)`` of mode ``?``."""
    run = tmp_path / "run"
    team = Team("random", "random", hints="strong")
    await suite(team, run, variant_ids=["base-1"], instances=1, repeats=2)
    torn = run / "episodes" / "base-1-i1-r1-random.strong.dmb-a1" / "summary.json"
    torn.write_bytes(torn.read_bytes()[:40])
    exported = tmp_path / "export"
    result = CliRunner().invoke(
        app, ["export", str(run), "--out", str(exported), "--format", "csv"]
    )
    assert result.exit_code == 0, result.output
    with (exported / "episodes.csv").open() as f:
        rows = {r["episode_id"]: r for r in csv.DictReader(f)}
    row = rows[torn.parent.name]
    assert (row["pairing"], row["mission_id"], row["mode"], row["scored"]) == (
        "SANZARU random · strong hints", "base-1", "sync", "False",
    )  # fmt: skip
    assert {r["pairing"] for r in rows.values()} == {"SANZARU random · strong hints"}
