"""Teams: the oracle defuses all 120 instances, the random team is a baseline, model teams run
over a loopback OpenAI-compatible stand-in (seeded losses: ``test_seeded_losses.py``)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from fake_openai import FakeServer, completion

from gptnt.players.config import PlayerConfig
from gptnt.sanzaru import TURN_ORDERS, Team, instances, play, read_summaries, suite, variant
from gptnt.sanzaru._teams import parse_calls

GPTNT = str(Path(sys.executable).with_name("gptnt"))


@pytest.mark.parametrize("order", TURN_ORDERS, ids=lambda o: "".join(r[0] for r in o))
async def test_the_oracle_team_defuses_every_instance(order: tuple[str, ...]) -> None:
    bank = instances()
    assert len(bank) == 120 and len({v.id for v, _ in bank}) == 24
    outcomes = Counter()
    team = Team("oracle", "oracle", order=order)  # type: ignore[arg-type]
    for v, seed in bank:
        outcomes[(await play(v, seed, team, None)).outcome] += 1
    assert outcomes == Counter({"solved": 120})


async def test_the_random_team_rarely_defuses(capsys: pytest.CaptureFixture[str]) -> None:
    by_family: Counter[str] = Counter()
    n: Counter[str] = Counter()
    for repeat in (1, 2):
        for v, seed in instances():
            s = await play(v, seed, Team("random", "random"), None, repeat=repeat)
            n[v.family] += 1
            by_family[v.family] += s.outcome == "solved"
    rates = {f: by_family[f] / n[f] for f in n}
    print("random team success per family:", {f: f"{r:.0%}" for f, r in rates.items()})
    assert all(r < 0.5 for r in rates.values()) and sum(by_family.values()) > 0


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
    assert len(summaries) == 4 and {s.outcome for s in summaries} <= {"solved", "strikeout"}
    first = server.received[0]
    system = first["messages"][0]["content"]
    assert "You are **Deaf**" in system and "Hint:" in system and "👍 thumbs_up" in system
    assert any("BOMB MANUAL" in json.dumps(r) for r in server.received)  # Mute's view
    key = f"base-1-i1-r1-{team.tag}"
    lines = [
        json.loads(x)
        for x in (tmp_path / "episodes" / f"{key}-a1" / "events.jsonl").read_text().splitlines()
    ]
    assert lines[0]["kind"] == "sanzaru_started" and lines[0]["harness"]["version"]
    assert {e["role"] for e in lines if e["kind"] == "sanzaru_turn"} == {"deaf", "mute", "blind"}
    referee = lines[-1]
    assert any(e["status"] == "bounced" and e["sender"] == "mute" for e in referee["log"])
    for s in summaries:
        if s.sanzaru and s.sanzaru.outcome == "wrong_action":
            assert s.sanzaru.failure_mode and "dead_channel" in s.sanzaru.failure_flags
    again = await suite(
        team, tmp_path, variant_ids=["base-1", "haystack-1"], instances=2, repeats=1
    )
    assert [s.episode_id for s in again] == [
        s.episode_id for s in summaries
    ]  # resumed, not replayed
    shown = subprocess.run(  # the real binary, once, after the suite
        [GPTNT, "sanzaru", "report", str(tmp_path)],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    assert "SANZARU success by team and family" in shown.stdout
    assert "Failure stages and modes" in shown.stdout
    assert len(read_summaries([tmp_path])) == 4


async def test_solo_plays_with_every_view(server: FakeServer, tmp_path: Path) -> None:
    server.replies = [(200, completion('<calls>[{"call": "wait"}]</calls>'))] * 50
    config = PlayerConfig(model="vllm:stand-in", base_url=server.url, transport_retries=0)
    s = (await play(variant("carving-1"), 1, Team("model", "solo", config, solo=True),
                    tmp_path)).sanzaru  # fmt: skip
    assert s is not None and s.outcome == "timed_out" and s.solo and s.hints == "none"
    text = json.dumps(server.received[0])
    assert "BOMB MANUAL" in text and "PLATE engraved [unreadable]" in text and "by touch" in text
    system = server.received[0]["messages"][0]["content"]
    assert "Hint:" not in system  # solo plays without hints (Table 4)
    # ... and alone: no teammates, no gesture alphabet, no speak or gesture call
    assert not any(w in system for w in ("Deaf", "Mute", "Blind", "teammate", "👍", "gesture"))


def test_thinking_on_caps_at_4096_tokens_where_the_provider_takes_a_budget() -> None:
    from gptnt.cli.sanzaru import THINKING
    from gptnt.players.backends import provider_settings

    def on(model: str, **extra: str) -> dict:
        config = PlayerConfig(model=model, **extra).model_copy(update=THINKING["on"])
        return provider_settings(config)

    claude = on("anthropic:claude-x")
    assert claude["anthropic_thinking"] == {"type": "enabled", "budget_tokens": 4096}
    assert claude["max_tokens"] == 1000 + 4096  # the answer keeps its own 1000
    gemini = on("google:gemini-x")
    assert gemini["google_thinking_config"] == {"thinking_budget": 4096}
    for model, extra in (
        ("openai:gpt-x", {}),
        ("vllm:qwen", {"base_url": "http://127.0.0.1:1/v1"}),
    ):
        level_only = on(model, **extra)  # no budget to send: the nearest effort level
        assert level_only["thinking"] == "medium" and level_only["max_tokens"] == 1000
        assert not any("thinking_" in k or k.endswith("_thinking") for k in level_only)
    off = provider_settings(PlayerConfig(model="anthropic:c").model_copy(update=THINKING["off"]))
    assert off["thinking"] is False and "anthropic_thinking" not in off


async def test_a_second_writer_of_a_run_directory_is_refused(tmp_path: Path) -> None:
    from gptnt.errors import ConfigError
    from gptnt.records import RunLock

    with RunLock(tmp_path), pytest.raises(ConfigError, match="another run writes here"):
        await suite(Team("oracle", "oracle"), tmp_path, variant_ids=["base-1"], instances=1,
                    repeats=1)  # fmt: skip
    assert len(await suite(Team("oracle", "oracle"), tmp_path, variant_ids=["base-1"],
                           instances=1, repeats=1)) == 1  # fmt: skip
