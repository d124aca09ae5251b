"""``sanzaru judge``: a model over loopback reads the transcript of each loss the record could
not decide (a code never spelled out) and picks one of the coder's candidates; its pick lands in
the summary as ``judge:<model>`` with the heuristic code kept; a failed call, or a pick outside
the candidates, leaves the summary for a rerun."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from fake_openai import FakeServer, completion
from typer.testing import CliRunner, Result

from gptnt.cli import app
from gptnt.players.config import PlayerConfig
from gptnt.sanzaru import FAILURE_MODES, Team, generate, play, read_summaries, variant


def _calls(*calls: dict) -> tuple[int, dict]:
    return 200, completion(f"<calls>{json.dumps(list(calls))}</calls>")


WAIT = {"call": "wait"}


async def _cli(*args: str) -> Result:
    """The command in a worker thread, so the loopback server keeps answering on this loop."""
    return await asyncio.to_thread(CliRunner().invoke, app, list(args))


async def _heuristic_loss(server: FakeServer, out: Path, repeat: int) -> None:
    """Deaf proposes Morse (never spelled out as symbol = value) and reports, Mute gestures a
    long message, Deaf relays a wrong cut, Blind makes it."""
    bomb = generate(variant("base-1"), 1)
    wrong = next(p for p in range(1, 4) if ("cut", p) != bomb.required(1))
    morse = ["fist", "raised_hand", "wave"] * 3
    server.replies = [
        _calls(
            {"call": "speak", "to": "mute", "text": f"Use Morse. The light is {bomb.lights[0]}."}
        ),
        _calls(WAIT),
        _calls(WAIT),
        _calls(WAIT),
        _calls({"call": "gesture", "to": "deaf", "symbols": morse}),
        _calls(WAIT),
        _calls({"call": "speak", "to": "blind", "text": f"CUT {wrong}"}),
        _calls(WAIT),
        _calls(WAIT),
        _calls(WAIT),
        _calls(WAIT),
        _calls({"call": "act", "op": "cut", "position": wrong}),
    ]
    config = PlayerConfig(model="vllm:team", base_url=server.url, transport_retries=0)
    played = await play(variant("base-1"), 1, Team("model", "team", config), out, repeat=repeat)
    s = played.sanzaru
    assert s is not None and played.outcome == "strikeout"
    assert s.outcome == "wrong_action" and s.coded_by == "heuristic", s
    assert s.failure_mode == "misalignment" and s.candidates == ("misalignment", "wrong_answer")


async def test_judge_recodes_heuristic_losses(server: FakeServer, tmp_path: Path) -> None:
    run = tmp_path / "run"
    await _heuristic_loss(server, run, 1)
    await _heuristic_loss(server, run, 2)
    await _heuristic_loss(server, run, 3)
    await play(variant("base-1"), 1, Team("random", "random"), run, repeat=4)  # not judged
    server.received.clear()
    judge = tmp_path / "judge.yaml"
    judge.write_text(f"model: vllm:judge-model\nbase_url: {server.url}\ntransport_retries: 0\n")
    server.replies = [
        (200, completion("Mute named the wrong wire. <mode>wrong_answer</mode>")),
        (500, b"overloaded"),
        (200, completion("<mode>slow_protocol</mode>")),  # not a candidate: left
    ]
    first = await _cli("sanzaru", "judge", str(run), "--player", str(judge), "--concurrency", "1")
    assert first.exit_code == 3, first.output  # one left for a rerun
    assert "1 of 3 heuristic losses judged, 1 recoded, 2 left" in first.output
    assert "not one of misalignment, wrong_answer" in first.output
    assert len(server.received) == 3
    text = server.received[0]["messages"][-1]["content"]
    text = text if isinstance(text, str) else " ".join(p.get("text", "") for p in text)
    assert "Round 1, deaf" in text and "CUT" in text and '"status": "acted"' in text
    assert "Choose one of: misalignment, wrong_answer." in text
    system = server.received[0]["messages"][0]["content"]
    assert all(f"**{mode}**" in system for mode in FAILURE_MODES)  # the whole taxonomy

    tag = Team("model", "team").tag
    by_id = {s.episode_id: s.sanzaru for s in read_summaries([run]) if s.sanzaru}
    judged = by_id[f"base-1-i1-r1-{tag}-a1"]  # the id is the episode directory's name
    assert judged.failure_mode == "wrong_answer" and judged.heuristic_mode == "misalignment"
    assert judged.coded_by == "judge:vllm:judge-model"
    assert (
        by_id[f"base-1-i1-r2-{tag}-a1"].coded_by == "heuristic"
    )  # the failed call changed nothing

    server.replies = [(200, completion("<mode>misalignment</mode>"))] * 2
    again = await _cli("sanzaru", "judge", str(run), "--player", str(judge))
    assert again.exit_code == 0, again.output
    assert "2 of 2 heuristic losses judged, 0 recoded, 0 left" in again.output
    rejudged = read_summaries([run])
    second = next(s.sanzaru for s in rejudged if s.episode_id == f"base-1-i1-r2-{tag}-a1")
    assert second is not None
    assert second.coded_by == "judge:vllm:judge-model" and second.heuristic_mode == "misalignment"
    report = CliRunner().invoke(app, ["sanzaru", "report", str(run), "--out", str(tmp_path / "r")])
    assert report.exit_code == 0, report.output
    modes = (tmp_path / "r" / "tables" / "failures_by_team.csv").read_text()
    assert "judge 3" in modes  # the three judged losses of the model team, on its own row


def test_judge_needs_a_run(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["sanzaru", "judge", str(tmp_path), "--player", "vllm:x"])
    assert "no SANZARU summaries" in str(result.exception)
