"""``sanzaru judge``: a model over loopback reads the transcript of each loss coded by
heuristic and picks misalignment or wrong_answer; its pick lands in the summary as
``judge:<model>`` with the heuristic code kept; failed calls leave the summary for a rerun."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from fake_openai import FakeServer, completion
from typer.testing import CliRunner, Result

from gptnt.cli import app
from gptnt.players.config import PlayerConfig
from gptnt.sanzaru import Team, generate, play, read_summaries, variant


def _calls(*calls: dict) -> tuple[int, dict]:
    return 200, completion(f"<calls>{json.dumps(list(calls))}</calls>")


WAIT = {"call": "wait"}


async def _cli(*args: str) -> Result:
    """The command in a worker thread, so the loopback server keeps answering on this loop."""
    return await asyncio.to_thread(CliRunner().invoke, app, list(args))


async def _heuristic_loss(server: FakeServer, out: Path, repeat: int) -> None:
    """Deaf tells Mute the light, Mute gestures, Deaf relays a wrong cut, Blind makes it."""
    bomb = generate(variant("base-1"), 1)
    right = next(i for i in range(1, len(bomb.wires) + 1) if bomb.wires[i - 1] == bomb.lights[0])
    wrong = 1 + right % len(bomb.wires)
    server.replies = [
        _calls({"call": "speak", "to": "mute", "text": f"The light is {bomb.lights[0]}."}),
        _calls({"call": "gesture", "to": "deaf", "symbols": ["apple"]}),
        _calls(WAIT),
        _calls({"call": "speak", "to": "blind", "text": f"CUT {wrong}"}),
        _calls(WAIT),
        _calls(WAIT),
        _calls(WAIT),
        _calls(WAIT),
        _calls({"call": "act", "op": "cut", "position": wrong}),
    ]
    config = PlayerConfig(model="vllm:team", base_url=server.url, transport_retries=0)
    s = await play(variant("base-1"), 1, Team("model", "team", config), out, repeat=repeat)
    assert s.outcome == "wrong_action" and s.coded_by == "heuristic", s
    assert s.failure_mode == "misalignment"


async def test_judge_recodes_heuristic_losses(server: FakeServer, tmp_path: Path) -> None:
    run = tmp_path / "run"
    await _heuristic_loss(server, run, 1)
    await _heuristic_loss(server, run, 2)
    await play(variant("base-1"), 1, Team("random", "random"), run, repeat=3)  # not judged
    server.received.clear()
    judge = tmp_path / "judge.yaml"
    judge.write_text(f"model: vllm:judge-model\nbase_url: {server.url}\ntransport_retries: 0\n")
    server.replies = [
        (200, completion("Mute named the wrong wire. <mode>wrong_answer</mode>")),
        (500, b"overloaded"),
    ]
    first = await _cli("sanzaru", "judge", str(run), "--player", str(judge), "--concurrency", "1")
    assert first.exit_code == 3, first.output  # one left for a rerun
    assert "1 of 2 heuristic losses judged, 1 recoded, 1 left" in first.output
    assert len(server.received) == 2
    text = server.received[0]["messages"][-1]["content"]
    text = text if isinstance(text, str) else " ".join(p.get("text", "") for p in text)
    assert "Round 1, deaf" in text and "CUT" in text and '"status": "acted"' in text
    assert "<mode>misalignment</mode>" in server.received[0]["messages"][0]["content"]

    by_id = {s.episode_id: s for s in read_summaries([run])}
    judged = by_id["base-1-i1-r1"]
    assert judged.failure_mode == "wrong_answer" and judged.heuristic_mode == "misalignment"
    assert judged.coded_by == "judge:vllm:judge-model"
    assert by_id["base-1-i1-r2"].coded_by == "heuristic"  # the failed call changed nothing

    server.replies = [(200, completion("<mode>misalignment</mode>"))]
    again = await _cli("sanzaru", "judge", str(run), "--player", str(judge))
    assert again.exit_code == 0, again.output
    assert "1 of 1 heuristic losses judged, 0 recoded, 0 left" in again.output
    rejudged = read_summaries([run])
    second = next(s for s in rejudged if s.episode_id == "base-1-i1-r2")
    assert second.coded_by == "judge:vllm:judge-model" and second.heuristic_mode == "misalignment"
    report = CliRunner().invoke(app, ["sanzaru", "report", str(run), "--out", str(tmp_path / "r")])
    assert report.exit_code == 0, report.output
    modes = (tmp_path / "r" / "tables" / "failure_modes.csv").read_text()
    assert "judge:vllm:judge-model 1" in modes


def test_judge_needs_a_run(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["sanzaru", "judge", str(tmp_path), "--player", "vllm:x"])
    assert "no SANZARU summaries" in str(result.exception)
