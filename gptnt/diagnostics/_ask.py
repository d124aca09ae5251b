"""``gptnt diag run`` as one call: the answerer a player name stands for, the results folder
named after the run, the questions asked, and the overall row of what they scored."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, get_args

from gptnt.diagnostics._dataset import Manifest, read_dataset
from gptnt.diagnostics._report import Row, rows
from gptnt.diagnostics._run import (
    Answer,
    Answerer,
    ModelAnswerer,
    RandomAnswerer,
    TruthAnswerer,
    read_answers,
    run,
)
from gptnt.errors import ConfigError
from gptnt.players.actions import InteractionMethod

if TYPE_CHECKING:
    from gptnt.manual import ManualPage

SCRIPTED = ("truth", "random")


@dataclass(frozen=True)
class Plan:
    """What a run is about to ask (handed to ``on_start``): into which results folder, of how
    many questions, how many are left, answered already, and failed before (asked again)."""

    out: Path
    questions: int
    todo: int
    answered: int
    failed: int


@dataclass(frozen=True)
class Asked:
    """What a run of a dataset left: its results folder, how many questions the dataset has,
    and the overall row of every answer in the folder (this run's and earlier ones')."""

    out: Path
    questions: int
    overall: Row


def ask(
    dataset: Path,
    player: str,
    *,
    out: Path | None = None,
    concurrency: int = 4,
    limit: int | None = None,
    paradigm: str | None = None,
    manual: bool = True,
    on_notice: Callable[[str], None] | None = None,
    on_start: Callable[[Plan], None] | None = None,
    on_answer: Callable[[Answer], None] | None = None,
) -> Asked:
    """Ask ``dataset``'s questions of ``player`` (a player config, a YAML file or
    provider:model, or the scripted ``truth`` / ``random``), resumably (answered questions are
    skipped, failed calls asked again). ``out``: the results folder (default: beside the
    dataset, named by dataset, player, paradigm and ``manual``, so an ablation never shares the
    folder of the run with the manual). ``on_start`` hears what is left before the first call, ``on_answer`` each answer, ``on_notice`` a manual's notice."""
    manifest, questions = read_dataset(dataset)
    # An option of another task would name an ablation (a results folder) that changed nothing.
    if not manual and manifest.task != "manual_vqa":
        raise ConfigError(f"--no-manual: {manifest.task} never shows the manual; it is for "
                          "manual_vqa datasets only")  # fmt: skip
    if paradigm is not None and manifest.task != "localisation":
        raise ConfigError(f"--paradigm: {manifest.task} has no clicks to answer; it is for "
                          "localisation datasets only")  # fmt: skip
    answerer, method, coordinates = _answerer(player, manifest, paradigm, manual, on_notice)
    methods = get_args(InteractionMethod)
    if method not in methods:
        raise ConfigError(f"--paradigm {method!r}: use {' or '.join(methods)}")
    slug = "".join(c if c.isalnum() or c in "-_" else "-" for c in player)
    ablation = "" if manual else "--no-manual"
    out = out or dataset.parent / "results" / f"{manifest.identity}--{slug}--{method}{ablation}"
    folder = out

    def start(todo: int, answered: int, failed: int) -> None:
        if on_start is not None:
            on_start(Plan(folder, len(questions), todo, answered, failed))

    spec = {"paradigm": method, "coordinates": coordinates, "manual": manual}
    asyncio.run(run(dataset, out, answerer, spec, concurrency=concurrency, limit=limit,
                    on_start=start, on_answer=on_answer))  # fmt: skip
    (overall,) = [r for r in rows(read_answers(out), "category") if r.group == "all"]
    return Asked(out, len(questions), overall)


def _answerer(
    player: str,
    manifest: Manifest,
    paradigm: str | None,
    manual: bool,
    on_notice: Callable[[str], None] | None,
) -> tuple[Answerer, str, str]:
    """The answerer ``player`` names, its paradigm and its coordinate system."""
    if player in SCRIPTED:
        scripted = TruthAnswerer() if player == "truth" else RandomAnswerer()
        return scripted, paradigm or "set-of-marks", "absolute"
    from gptnt.players.backends import check_endpoint
    from gptnt.players.config import load_player_config

    config = load_player_config(player)
    check_endpoint(config)
    pages: tuple[ManualPage, ...] = ()
    if manifest.task == "manual_vqa" and manual:
        from gptnt.manual import PAPER, load_manual, resolve_source

        source, notice = resolve_source(PAPER, manifest.rule_seed)
        if notice and on_notice is not None:
            on_notice(notice)
        pages = tuple(load_manual(source, rule_seed=manifest.rule_seed).pages)
    answerer = ModelAnswerer(config, manual_pages=pages)
    return answerer, paradigm or config.interaction, config.coordinates
