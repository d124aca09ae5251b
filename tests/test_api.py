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


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: gptnt.run_episode(3, "sync"), "mission: 3 is an int; give a mission id as text"),
        (lambda: gptnt.run_episode("Wires-234", "sync", settings=["records.out"]),
         "settings: a list; give a mapping of dotted keys"),
        (lambda: gptnt.run_episode("Wires-234", "sync", on_turn="print"),
         "on_turn: 'print' is a str; give a function"),
        (lambda: gptnt.run_episode("Wires-234", "sync", config=3), "config: 3 is an int"),
        (lambda: gptnt.load_records("runs/x"),
         "runs: 'runs/x' is one str; give a list of run directories"),
        (lambda: gptnt.load_records([3]), "runs: 3 is an int; give a run directory"),
        (lambda: gptnt.load_records(None), "runs: None; give a list of run directories"),
        (lambda: gptnt.run_baseline("3"), "repeats: '3' is a str; give a whole number"),
        (lambda: gptnt.run_baseline(2, workers=True), "workers: True is a bool"),
        (lambda: gptnt.replay_episode(Path("x"), "2"), "from_turn: '2' is a str"),
    ],
)  # fmt: skip
def test_an_argument_of_the_wrong_type_is_one_config_error_naming_it(call, message: str) -> None:
    """A notebook passes what it has (``3`` for ``"3"``, one path for a list of them): each public
    function checks its arguments' types first and names the one that is wrong, instead of an
    ``AttributeError`` from deep inside or a string read as a list of one-letter paths."""
    with pytest.raises(ConfigError) as err:
        call()
    assert str(err.value).startswith(message), str(err.value)


def test_an_episode_given_as_text_is_read_as_a_path(tmp_path: Path) -> None:
    """The type checks let a notebook's text through for a path: it is then used as one (a
    ``str / str`` TypeError was what came back)."""
    with pytest.raises(ConfigError, match="^EPISODE nowhere/ep: no events.jsonl"):
        gptnt.replay_episode("nowhere/ep", 1, out=str(tmp_path))  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="^out: 3 is an int; give a folder's path"):
        gptnt.replay_episode(tmp_path, 1, out=3)  # type: ignore[arg-type]
    assert not any(tmp_path.iterdir())
