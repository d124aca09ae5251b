"""The public Python API plays and reads episodes as the CLI does (docs/api.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

import gptnt
from gptnt.errors import ConfigError


def test_run_episode_plays_and_load_records_reads_it(tmp_path: Path) -> None:
    turns: list[str] = []
    starts: list[gptnt.Starting] = []
    summary = gptnt.run_episode(
        "Wires-234", "sync", defuser="oracle", expert="oracle",
        settings={"records.out": str(tmp_path)},
        on_start=starts.append, on_turn=lambda spec, event: turns.append(event.role),
    )  # fmt: skip
    assert summary.outcome == "solved"
    assert {"defuser", "expert"} <= set(turns)
    (start,) = starts
    assert start.mission.id == "Wires-234" and start.run_dir.parent == tmp_path
    (run,) = gptnt.load_records([start.run_dir])
    (episode,) = run.episodes
    assert episode.summary is not None and episode.summary.outcome == "solved"
    assert len(episode.turns) == len(turns)


def test_bad_input_raises_one_config_error_before_anything_starts(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="argument defuser: players.defuser 'nosuch'"):
        gptnt.run_episode("Wires-234", "sync", defuser="nosuch",
                          settings={"records.out": str(tmp_path)})  # fmt: skip
    with pytest.raises(ConfigError, match="mode"):
        gptnt.run_episode("Wires-234", "paused")  # type: ignore[arg-type]
    assert not any(tmp_path.iterdir())
