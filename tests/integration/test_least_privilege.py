"""Least privilege, read from the live processes: every service of an episode (each launch
that makes processes) has only the environment its job needs and nothing secret on its command
line; and no secret given to the run — the admin Redis URL, the game token, a provider key, the
password in a ``base_url`` — reaches the records, the logs or the exported tables."""

from __future__ import annotations

import base64
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from standin_players import STANDIN_KEY, STANDIN_KEY_ENV, Hostile

from gptnt.analysis import export, load_runs
from gptnt.config import GameConfig
from gptnt.missions import Mission
from gptnt.protocol import MissionConfig
from gptnt.protocol.client import TOKEN_ENV
from gptnt.records import Ledger, LedgerEntry
from gptnt.services.manager import Episode, EpisodeSettings, EpisodeSpec, ProcessHandle, WarmHandle

URL_PASSWORD = "urlpw-canary-7d3e91"
GAME_TOKEN = "game-token-canary-51ab"
OTHER_KEY = "sk-ant-other-provider-canary-0c44"


def _pid(handle: object) -> int:
    if isinstance(handle, ProcessHandle):
        return handle.proc.pid
    assert isinstance(handle, WarmHandle)
    return handle.pid


def _read(pid: int, what: str) -> bytes:
    return Path(f"/proc/{pid}/{what}").read_bytes()


@pytest.mark.parametrize("launch", ["process", "warm"])
async def test_every_service_holds_only_what_it_needs_and_the_records_no_secret(
    launch: str, offline: None, redis_admin_url: str, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    admin_password = urlsplit(redis_admin_url).password
    assert admin_password
    monkeypatch.setenv("GPTNT_REDIS_URL", redis_admin_url)  # the leak of the issue
    monkeypatch.setenv(TOKEN_ENV, GAME_TOKEN)
    monkeypatch.setenv("ANTHROPIC_API_KEY", OTHER_KEY)
    config = MissionConfig(seed=234, time_limit=6, components=["Wires"], is_front=True,
                           needy_time=6, opt_widgets=1)  # fmt: skip
    mission = Mission(id="Wires-234", kind="single", title="short clock", config=config)
    settings = EpisodeSettings(launch=launch, game=GameConfig(width=320, height=240))  # type: ignore[arg-type]
    seen: dict[str, tuple[bytes, bytes]] = {}
    async for hostile in Hostile().serve():
        host = urlsplit(hostile.url).netloc
        player = tmp_path / "p.yaml"
        player.write_text(
            "model: openai:hostile\n"
            f"base_url: http://proxyuser:{URL_PASSWORD}@{host}/key-echo/v1?key={URL_PASSWORD}\n"
            f"api_key_env: {STANDIN_KEY_ENV}\nimage_size: [320, 240]\ntransport_retries: 0\n"
        )
        spec = EpisodeSpec.make("Wires-234", "sync", str(player), "oracle")
        episode = Episode(spec, settings, admin_url=redis_admin_url, run_dir=tmp_path / "run",
                          mission=mission)  # fmt: skip

        def look(_spec: EpisodeSpec, event: object, episode: Episode = episode) -> None:
            for handle in episode._handles:
                if handle.name not in seen:
                    pid = _pid(handle)
                    seen[handle.name] = (_read(pid, "environ"), _read(pid, "cmdline"))

        episode._on_turn = look
        summary = await episode.run()
    assert summary.outcome in ("solved", "strikeout", "timeout"), summary.reason
    assert set(seen) == {"game", "defuser", "expert"}
    for name, (environ, cmdline) in seen.items():
        for secret in (admin_password, GAME_TOKEN, OTHER_KEY, URL_PASSWORD, STANDIN_KEY):
            assert secret.encode() not in cmdline, (name, secret)
        for secret in (admin_password, GAME_TOKEN, OTHER_KEY):  # the game plays the simulator
            assert secret.encode() not in environ, (name, secret)
        if name != "defuser" or launch == "warm":  # a fork's exec environment is the server's
            assert STANDIN_KEY.encode() not in environ and URL_PASSWORD.encode() not in environ
    if launch == "process":  # the model player's own key is in its own environment only
        assert STANDIN_KEY.encode() in seen["defuser"][0]
    # The URL's userinfo goes out as Basic auth (httpx), and the stand-in echoed it back in
    # every answer: the encoded password is a secret too.
    basic = base64.b64encode(f"proxyuser:{URL_PASSWORD}".encode()).decode()
    assert hostile.keys == {f"Basic {basic}"}

    run_dir = tmp_path / "run"
    Ledger(run_dir).append(LedgerEntry(
        episode_key=spec.key, attempt=1, status="finished", outcome=summary.outcome,
        reason=summary.reason, episode_dir=str(episode.dir.relative_to(run_dir)), at=0.0,
    ))  # fmt: skip
    export(load_runs([run_dir]), tmp_path / "tables", "csv")
    written = [p for folder in (run_dir, tmp_path / "tables") for p in folder.rglob("*")
               if p.is_file() and p.suffix != ".png"]  # fmt: skip
    assert any(p.name == "episodes.csv" for p in written)
    assert any(p.name == "events.jsonl" for p in written)
    for path in written:
        data = path.read_bytes()
        for secret in (admin_password, GAME_TOKEN, OTHER_KEY, URL_PASSWORD, STANDIN_KEY, basic):
            assert secret.encode() not in data, (path.name, secret)
