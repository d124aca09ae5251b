"""Teams: the oracle defuses all 120 instances, the random team is a baseline, model teams run
over a loopback OpenAI-compatible stand-in, and seeded losses are coded as expected."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeServer, completion

from gptnt.players.config import PlayerConfig
from gptnt.sanzaru import Referee, Team, generate, instances, play, read_summaries, suite, variant
from gptnt.sanzaru._coding import code_loss
from gptnt.sanzaru._teams import Turn, parse_calls

GPTNT = str(Path(sys.executable).with_name("gptnt"))


async def test_the_oracle_team_defuses_every_instance() -> None:
    bank = instances()
    assert len(bank) == 120 and len({v.id for v, _ in bank}) == 24
    outcomes = Counter()
    for v, seed in bank:
        outcomes[(await play(v, seed, Team("oracle", "oracle"), None)).outcome] += 1
    assert outcomes == Counter({"defused": 120})


async def test_the_random_team_rarely_defuses(capsys: pytest.CaptureFixture[str]) -> None:
    by_family: Counter[str] = Counter()
    n: Counter[str] = Counter()
    for repeat in (1, 2):
        for v, seed in instances():
            s = await play(v, seed, Team("random", "random"), None, repeat=repeat)
            n[v.family] += 1
            by_family[v.family] += s.outcome == "defused"
    rates = {f: by_family[f] / n[f] for f in n}
    print("random team success per family:", {f: f"{r:.0%}" for f, r in rates.items()})
    assert all(r < 0.5 for r in rates.values()) and sum(by_family.values()) > 0


# ----------------------------------------------------------------------------- seeded losses


@dataclass
class Scripted:
    """Says the given calls in the given rounds, waits otherwise."""

    role: str
    script: dict[int, list[dict[str, Any]]] = field(default_factory=dict)

    async def turn(self, turn: Turn):  # type: ignore[no-untyped-def]
        from gptnt.sanzaru._teams import Reply

        return Reply([*self.script.get(turn.round, []), {"call": "wait"}])


async def _lose(vid: str, scripts: dict[str, dict[int, list]], seed: int = 1):  # type: ignore[no-untyped-def]
    ep = Referee(generate(variant(vid), seed))
    agents = {r: Scripted(r, scripts.get(r, {})) for r in ("deaf", "mute", "blind")}
    events: list = []
    while ep.outcome is None:
        for role in ep.roles:
            turn = Turn(
                role, ep.round, ep.bomb.variant.rounds, ep.view(role), tuple(ep.deliveries(role))
            )
            ep.play(role, (await agents[role].turn(turn)).calls)
            if ep.outcome:
                break
        ep.next_round()
    return ep, code_loss(ep, events)


async def test_silence_is_no_shared_code() -> None:
    ep, coded = await _lose("base-1", {})
    assert (
        ep.outcome == "timed_out" and coded.mode == "no_shared_code" and coded.by == "ground_truth"
    )
    assert "omission" in coded.flags


async def test_facts_never_reaching_mute_is_omission() -> None:
    ep = Referee(generate(variant("base-1"), 1))
    wrong = next(i + 1 for i in range(3) if ("cut", i + 1) != ep.bomb.required(1))
    ep, coded = await _lose(
        "base-1",
        {
            "mute": {1: [{"call": "gesture", "to": "deaf", "symbols": ["fist"]}]},
            "deaf": {
                2: [{"call": "speak", "to": "blind", "text": f"cut the red wire, number {wrong}"}],
                3: [{"call": "speak", "to": "deaf", "text": "hello?"}],
            },
            "blind": {3: [{"call": "act", "op": "cut", "position": wrong}]},
        },
    )
    assert ep.outcome == "wrong_action" and coded.mode == "omission"
    assert {"omission", "ungrounded_ref", "dead_channel", "assumed_meaning"} <= set(coded.flags)


async def test_slow_protocol_when_every_channel_works() -> None:
    light = generate(variant("base-1"), 1).lights[0]
    report = {"call": "speak", "to": "mute", "text": f"the light is {light}"}
    ep, coded = await _lose(
        "base-1",
        {
            "deaf": {
                r: [report, {"call": "speak", "to": "blind", "text": "wait 1 more round"}]
                for r in range(1, 9)
            },
            "mute": {
                r: [{"call": "gesture", "to": "deaf", "symbols": ["question"]}] for r in range(2, 9)
            },
        },
    )
    assert ep.outcome == "timed_out" and coded.mode == "slow_protocol"
    assert "omission" not in coded.flags


async def test_a_cut_aimed_at_an_earlier_light_is_wrong_round() -> None:
    for seed in range(1, 6):
        bomb = generate(variant("flashing-2"), seed)
        early, late = bomb.required(1), bomb.required(2)
        if early == late:
            continue
        lights = " ".join(bomb.lights)
        ep, coded = await _lose(
            "flashing-2",
            {
                "deaf": {1: [{"call": "speak", "to": "mute", "text": f"light {lights}"}]},
                "mute": {1: [{"call": "gesture", "to": "deaf", "symbols": ["fist"]}]},
                "blind": {2: [{"call": "act", "op": "cut", "position": early[1]}]},
            },
            seed,
        )
        assert ep.outcome == "wrong_action" and coded.mode == "wrong_round"
        assert "wrong_round" in coded.flags
        return
    pytest.fail("no flashing-2 instance whose answer changes between rounds 1 and 2")


# ----------------------------------------------------------------------------- model teams


def test_model_replies_are_parsed_or_fed_back() -> None:
    assert parse_calls('<calls>[{"call": "wait"}]</calls>') == ([{"call": "wait"}], None)
    calls, feedback = parse_calls("I will cut wire 2.")
    assert calls == [{"call": "wait"}] and "no <calls>" in feedback
    calls, feedback = parse_calls("<calls>[{oops}]</calls>")
    assert calls == [{"call": "wait"}] and "not valid JSON" in feedback


async def test_a_model_suite_over_loopback_runs_and_is_reported(
    server: FakeServer, tmp_path: Path
) -> None:
    # The stand-in answers every role the same way: Deaf and Mute's acts bounce, Blind cuts 1.
    reply = completion(
        '<thoughts>cut one</thoughts><calls>[{"call": "speak", "text": "cut 1"}, '
        '{"call": "act", "op": "cut", "position": 1}]</calls>',
        prompt=300,
    )
    server.replies = [(200, reply)] * 500
    config = PlayerConfig(model="vllm:stand-in", base_url=server.url, transport_retries=0)
    team = Team("model", "stand-in", config, "weak")
    summaries = await suite(
        team, tmp_path, variant_ids=["base-1", "haystack-1"], instances=2, repeats=1, concurrency=2
    )
    assert len(summaries) == 4 and {s.outcome for s in summaries} <= {"defused", "wrong_action"}
    first = server.received[0]
    system = first["messages"][0]["content"]
    assert "You are **Deaf**" in system and "Hint:" in system and "👍 thumbs_up" in system
    assert any("BOMB MANUAL" in json.dumps(r) for r in server.received)  # Mute's view
    lines = [
        json.loads(x) for x in (tmp_path / "base-1-i1-r1" / "events.jsonl").read_text().splitlines()
    ]
    assert {e["role"] for e in lines if e["kind"] == "turn"} == {"deaf", "mute", "blind"}
    referee = lines[-1]
    assert any(e["status"] == "bounced" and e["sender"] == "mute" for e in referee["log"])
    for s in summaries:
        if s.outcome == "wrong_action":
            assert s.failure_mode and "dead_channel" in s.failure_flags
    again = await suite(
        team, tmp_path, variant_ids=["base-1", "haystack-1"], instances=2, repeats=1
    )
    assert [s.episode_id for s in again] == [
        s.episode_id for s in summaries
    ]  # resumed, not replayed
    shown = subprocess.run(  # noqa: ASYNC221 - the real binary, once, after the suite
        [GPTNT, "sanzaru", "report", str(tmp_path)],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    assert "SANZARU success by family" in shown.stdout and "Failure modes" in shown.stdout
    assert len(read_summaries([tmp_path])) == 4


async def test_solo_plays_with_every_view(server: FakeServer, tmp_path: Path) -> None:
    server.replies = [(200, completion('<calls>[{"call": "wait"}]</calls>'))] * 50
    config = PlayerConfig(model="vllm:stand-in", base_url=server.url, transport_retries=0)
    s = await play(variant("carving-1"), 1, Team("model", "solo", config, solo=True), tmp_path)
    assert s.outcome == "timed_out" and s.solo and s.hints == "none"
    text = json.dumps(server.received[0])
    assert "BOMB MANUAL" in text and "PLATE engraved [unreadable]" in text and "by touch" in text
    assert "Hint:" not in server.received[0]["messages"][0]["content"]
