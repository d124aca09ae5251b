"""A model judge for the losses the coder can only guess at.

Where only the meaning the team gave its gestures decides a loss (a code never spelled out in
speech: Morse, a letter grid, a whole table), the coder names the candidate modes, guesses one
and marks it ``coded_by="heuristic"`` (see ``_coding``). The judge shows a model the paper's
taxonomy, the candidates and the episode's whole transcript, and asks it to pick one of the
candidates. Its pick replaces ``failure_mode`` with ``coded_by="judge:<model>"``; the coder's
guess stays in ``heuristic_mode``. A failed call, a reply without a mode or a mode outside the
candidates leaves the summary as it was (it is reported, and judged on a rerun).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gptnt.records import (
    Event,
    SanzaruReferee,
    SanzaruResult,
    SanzaruTurn,
    Summary,
    read_events,
    write_summary,
)
from gptnt.sanzaru._coding import FAILURE_MODES
from gptnt.sanzaru._run import summaries_under
from gptnt.sanzaru._teams import PROMPTS

if TYPE_CHECKING:
    from gptnt.players.config import PlayerConfig

_MODE = re.compile(r"<mode>\s*([a-z_]+)\s*</mode>", re.IGNORECASE)
_RAW_CAP = 2000  # characters of one reply kept in the transcript


@dataclass(frozen=True)
class Judgement:
    """One episode put to the judge: its pick, or why there is none."""

    episode_id: str
    heuristic: str
    mode: str | None
    """The judge's mode; ``None`` when the call failed or the reply named none."""
    raw: str
    failure: str | None = None


def transcript(events: Iterable[Event]) -> str:
    """The episode as the judge reads it: every turn, then the referee's log."""
    out = []
    for e in events:
        if isinstance(e, SanzaruTurn):
            out += [f"## Round {e.round}, {e.role}", "Shown:", e.view,
                    "Delivered:", *(e.delivered or ["(nothing)"]),
                    "Replied:", (e.raw or "(no reply)")[:_RAW_CAP],
                    "Calls: " + json.dumps(e.calls, ensure_ascii=False), ""]  # fmt: skip
        elif isinstance(e, SanzaruReferee):
            out.append("## Referee's log")
            for entry in e.log:
                shown = {k: v for k, v in entry.items() if k != "glyphs"}
                out.append(json.dumps(shown, ensure_ascii=False))
    return "\n".join(out)


def pending(run: Path) -> list[tuple[Path, Summary, SanzaruResult]]:
    """The episodes under ``run`` whose mode is still the coder's guess."""
    return [
        (folder, summary, result)
        for folder, summary, result in summaries_under(run)
        if result.coded_by == "heuristic" and result.candidates
    ]


def taxonomy() -> str:
    """The modes as the judge reads them: name, stage, how it can end, what it means."""
    return "\n".join(f"- **{name}** ({m.stage}; ends by {m.ends_by.replace('_', ' ')}): {m.meaning}"
                     for name, m in FAILURE_MODES.items())  # fmt: skip


async def judge(
    run: Path,
    config: PlayerConfig,
    *,
    concurrency: int = 4,
    on_done: Callable[[Judgement], None] | None = None,
) -> list[Judgement]:
    """Judge every pending episode of ``run`` and write each pick into its summary."""
    from gptnt.players.backends import ModelBackend
    from gptnt.players.conversation import ChatRequest, TextPart, UserMessage

    backend = ModelBackend(config)
    system = (PROMPTS / "judge.md").read_text().replace("$taxonomy", taxonomy())
    name = config.model  # provider:model, the identity of the judge
    gate = asyncio.Semaphore(concurrency)

    async def one(folder: Path, summary: Summary, result: SanzaruResult) -> Judgement:
        ask = (f"Choose one of: {', '.join(result.candidates)}.\n\n# Transcript\n\n"
               + transcript(read_events(folder)))  # fmt: skip
        request = ChatRequest(system, (UserMessage((TextPart(ask),)),))
        async with gate:
            reply = await backend.complete(request)
        raw = reply.text or ""
        found = [m.lower() for m in _MODE.findall(raw)]
        heuristic = result.failure_mode or ""
        if reply.failure or not found or found[-1] not in result.candidates:
            failure = reply.failure or (
                f"reply named {found[-1]!r}, not one of {', '.join(result.candidates)}"
                if found else "no <mode> tag in the reply")  # fmt: skip
            verdict = Judgement(summary.episode_id, heuristic, None, raw, failure)
        else:
            verdict = Judgement(summary.episode_id, heuristic, found[-1], raw)
            judged = result.model_copy(update={
                "failure_mode": verdict.mode, "coded_by": f"judge:{name}",
                "heuristic_mode": heuristic})  # fmt: skip
            write_summary(folder, summary.model_copy(update={"sanzaru": judged}))
        if on_done:
            on_done(verdict)
        return verdict

    return list(await asyncio.gather(*(one(*p) for p in pending(run))))
