"""Asking a dataset: answerers, the request each question becomes, scoring, and resumable runs.

An ``Answerer`` turns a question into raw text. Three exist: ``ModelAnswerer`` (any player
config, through the same backends and manual as in play), ``TruthAnswerer`` (reads the ground
truth: must score 100 %) and ``RandomAnswerer`` (uniform over the options or labels: must land
on chance). Answers are appended to ``answers.jsonl`` as they arrive, so a run that stops can be
resumed: questions already answered are skipped, and a question whose call failed (the
provider's fault) is asked again; the latest line of a question is its answer.
"""

from __future__ import annotations

import asyncio
import random
import re
import string
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np
from pydantic import BaseModel, ConfigDict

from gptnt.diagnostics._dataset import Manifest, Question, option_letter, read_dataset
from gptnt.diagnostics.localisation import AMBIGUOUS, NONE, score_point, to_pixel
from gptnt.errors import ConfigError
from gptnt.players.actions import InteractionMethod
from gptnt.resources import prompts_dir

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from gptnt.manual import ManualPage
    from gptnt.players.config import PlayerConfig
    from gptnt.players.conversation import ChatRequest

PROMPTS = prompts_dir() / "diag"
_ANSWER = re.compile(r"<answer>\s*(.*?)\s*</answer>", re.DOTALL | re.IGNORECASE)
_POINT = re.compile(r"(-?\d+(?:\.\d+)?)\s*[, ]\s*(-?\d+(?:\.\d+)?)")


class RunSpec(BaseModel):
    """``run.json``: what was asked of whom."""

    model_config = ConfigDict(frozen=True)

    dataset: str
    """The dataset's identity (``Manifest.identity``)."""
    task: str
    answerer: str
    paradigm: InteractionMethod = "set-of-marks"
    coordinates: str = "absolute"
    manual: bool = True


class Answer(BaseModel):
    """One line of ``answers.jsonl``."""

    model_config = ConfigDict(frozen=True)

    id: str
    category: str
    module: str
    raw: str
    parsed: str | None
    correct: bool
    vanilla: bool = False
    """Contamination under a rule seed ≠ 1: the answer is the one the v1 rules give."""
    chance: float | None
    failure: str | None = None
    latency_s: float | None = None
    cost_usd: float | None = None

    @property
    def unparsed(self) -> bool:
        """A reply came but held no ``<answer>`` (scored wrong, and counted apart)."""
        return self.failure is None and self.parsed is None


# ----------------------------------------------------------------------------- scoring


def parse(raw: str) -> str | None:
    found = _ANSWER.findall(raw)
    return found[-1].strip() if found else None


def _norm(text: str) -> str:
    return " ".join(text.lower().translate(str.maketrans("", "", string.punctuation)).split())


def chance(q: Question) -> float | None:
    if q.options:
        return 1 / len(q.options)
    if q.target is not None:
        return 1 / (len(q.target.labels) + 2)  # a label, NONE or AMBIGUOUS
    return None


def score(q: Question, raw: str, spec: RunSpec, dataset: Path) -> Answer:
    parsed = parse(raw)
    correct = vanilla = False
    if parsed is not None:
        if q.options:
            letter = parsed.strip().upper()[:1]
            index = ord(letter) - ord("A") if letter.isalpha() else -1
            correct = index == q.answer
            vanilla = q.vanilla_answer is not None and index == q.vanilla_answer
        elif q.target is not None:
            correct = _score_location(q, parsed, spec, dataset)
        else:
            correct = _norm(parsed) == _norm(str(q.truth.get("accept", "")))
            vanilla = bool(q.truth.get("vanilla")) and _norm(parsed) == _norm(q.truth["vanilla"])
            vanilla = vanilla and not correct
    return Answer(
        id=q.id,
        category=q.category,
        module=q.module,
        raw=raw,
        parsed=parsed,
        correct=correct,
        vanilla=vanilla,
        chance=chance(q),
    )


def _score_location(q: Question, parsed: str, spec: RunSpec, dataset: Path) -> bool:
    target = q.target
    assert target is not None
    word = parsed.strip().upper()
    special = AMBIGUOUS if q.category == "ambiguity" else NONE
    if target.label is None:
        return word == special
    if spec.paradigm == "set-of-marks":
        return word == target.label
    point = _POINT.search(parsed)
    if point is None:
        return False
    mask = _mask(dataset / "images" / q.images["mask"])
    height, width = mask.shape[:2]
    x, y = float(point.group(1)), float(point.group(2))
    return score_point(mask, target, to_pixel((x, y), spec.coordinates, (width, height)))


_MASKS: dict[Path, np.ndarray] = {}


def _mask(path: Path) -> np.ndarray:
    if path not in _MASKS:
        from gptnt.protocol import decode_png

        _MASKS[path] = decode_png(path.read_bytes())
    return _MASKS[path]


# ----------------------------------------------------------------------------- answerers


class Answerer(Protocol):
    name: str

    async def answer(self, q: Question, spec: RunSpec, dataset: Path) -> tuple[str, dict]: ...


@dataclass
class TruthAnswerer:
    """Reads the ground truth: the check that questions and scoring agree."""

    name: str = "truth"

    async def answer(self, q: Question, spec: RunSpec, dataset: Path) -> tuple[str, dict]:
        if q.options:
            return f"<answer>{option_letter(q.answer or 0)}</answer>", {}
        if q.target is not None:
            if q.target.label is None:
                word = AMBIGUOUS if q.category == "ambiguity" else NONE
                return f"<answer>{word}</answer>", {}
            if spec.paradigm == "set-of-marks":
                return f"<answer>{q.target.label}</answer>", {}
            mask = _mask(dataset / "images" / q.images["mask"])
            ys, xs = np.nonzero(np.all(mask[..., :3] == np.array(q.target.mask_colour), axis=-1))
            i = len(xs) // 2
            height, width = mask.shape[:2]
            x, y = xs[i] + 0.5, ys[i] + 0.5
            scale = {
                "absolute": (1, 1),
                "scaled": (1000 / width, 1000 / height),
                "relative": (1 / width, 1 / height),
            }[spec.coordinates]
            return f"<answer>{x * scale[0]:.3f}, {y * scale[1]:.3f}</answer>", {}
        return f"<answer>{q.truth.get('accept', '')}</answer>", {}


@dataclass
class RandomAnswerer:
    """Uniform over the options (or labels with NONE and AMBIGUOUS): lands on chance."""

    seed: int = 0
    name: str = "random"

    async def answer(self, q: Question, spec: RunSpec, dataset: Path) -> tuple[str, dict]:
        rng = random.Random(f"{self.seed}:{q.id}")
        if q.options:
            return f"<answer>{option_letter(rng.randrange(len(q.options)))}</answer>", {}
        if q.target is not None:
            return f"<answer>{rng.choice([*q.target.labels, NONE, AMBIGUOUS])}</answer>", {}
        return "<answer>?</answer>", {}


class ModelAnswerer:
    """Asks a model through the play backends, with the manual as in play (Manual VQA)."""

    def __init__(
        self, config: PlayerConfig, *, manual_pages: Sequence[ManualPage] = (), rule_seed: int = 1
    ) -> None:
        from gptnt.players.backends import ModelBackend

        self.config = config
        self.name = config.model
        self.backend = ModelBackend(config)
        self.pages = manual_pages

    async def answer(self, q: Question, spec: RunSpec, dataset: Path) -> tuple[str, dict]:
        request = build_request(q, spec, dataset, self.config, self.pages)
        reply = await self.backend.complete(request)
        meta = {
            "latency_s": reply.record.latency_s,
            "cost_usd": reply.record.cost_usd,
            "failure": reply.failure and (reply.record.error or reply.failure),
        }
        return reply.text, meta


def build_request(
    q: Question, spec: RunSpec, dataset: Path, config: PlayerConfig, pages: Sequence[ManualPage]
) -> ChatRequest:
    """The model input of one question: system prompt, manual (as in play), question, image."""
    from gptnt.players.conversation import Attachment, Conversation
    from gptnt.vision import resize

    if q.task == "manual_vqa" or (q.task == "contamination"):
        use_manual = q.task == "manual_vqa" and spec.manual
        system = _prompt("system_expert.md" if use_manual else "system_expert_no_manual.md")
    elif q.task == "sim_vqa":
        use_manual, system = False, _prompt("system_defuser.md")
    else:
        use_manual = False
        if spec.paradigm == "set-of-marks":
            system = _prompt("system_locate_marks.md")
        else:
            width, height = config.image_size
            hint = {
                "absolute": f"x runs from 0 to {width} (left to right), y from 0 to {height} "
                "(top to bottom), in pixels of the picture.",
                "scaled": "x and y each run from 0 to 1000 (left to right, top to bottom).",
                "relative": "x and y each run from 0 to 1 (left to right, top to bottom).",
            }[spec.coordinates]
            system = string.Template(_prompt("system_locate_coordinates.md")).substitute(
                coordinates=hint
            )
    conversation = Conversation(
        system,
        manual=pages if use_manual else (),
        page_height=max(config.image_size),  # as in play
        cache_points=config.provider == "anthropic",
    )
    text = q.prompt
    if q.options:
        text += "\n" + "\n".join(f"{option_letter(i)}. {o}" for i, o in enumerate(q.options))
    attachments = []
    role = "marked" if q.task == "localisation" and spec.paradigm == "set-of-marks" else "frame"
    if role in q.images:
        from gptnt.protocol import decode_png, encode_png

        image = decode_png((dataset / "images" / q.images[role]).read_bytes())
        png = encode_png(resize(image, config.image_size))
        attachments.append(Attachment("The picture:", png))
    return conversation.request(text, attachments)


def _prompt(name: str) -> str:
    return (PROMPTS / name).read_text()


# ----------------------------------------------------------------------------- runs


async def run(
    dataset: Path,
    out: Path,
    answerer: Answerer,
    spec_extra: dict,
    *,
    concurrency: int = 4,
    limit: int | None = None,
    on_start: Callable[[int, int, int], None] | None = None,
    on_answer: Callable[[Answer], None] | None = None,
) -> Path:
    """Ask every question not yet answered in ``out`` (a failed call is asked again); returns
    the answers file. ``on_start(todo, answered, failed)`` is told what is left before the first
    call, ``on_answer(answer)`` each answer."""
    manifest, questions = read_dataset(dataset)
    spec = RunSpec(
        dataset=manifest.identity, task=manifest.task, answerer=answerer.name, **spec_extra
    )
    out.mkdir(parents=True, exist_ok=True)
    spec_file = out / "run.json"
    if spec_file.exists():
        old = RunSpec.model_validate_json(spec_file.read_text())
        if old != spec:
            raise ConfigError(
                f"--out {out}: holds a run of {old.answerer} on {old.dataset} "
                f"({old.paradigm}); use another --out for {spec.answerer} on {spec.dataset}"
            )
    else:
        spec_file.write_text(spec.model_dump_json(indent=2) + "\n")
    answers_file = out / "answers.jsonl"
    _drop_partial_line(answers_file)
    earlier = read_answers(out) if answers_file.exists() else []
    done = {a.id for a in earlier if a.failure is None}
    todo = [q for q in questions if q.id not in done][:limit]
    if on_start:
        on_start(len(todo), len(done), sum(a.failure is not None for a in earlier))
    gate = asyncio.Semaphore(concurrency)
    lock = asyncio.Lock()

    async def one(q: Question) -> None:
        async with gate:
            raw, meta = await answerer.answer(q, spec, dataset)
        answer = score(q, raw, spec, dataset).model_copy(update=meta)
        async with lock:
            with answers_file.open("a", encoding="utf-8") as f:
                f.write(answer.model_dump_json() + "\n")
            if on_answer:
                on_answer(answer)

    await asyncio.gather(*(one(q) for q in todo))
    return answers_file


def _drop_partial_line(path: Path) -> None:
    """Cut a last line that a crash left without its newline (its question is asked again)."""
    if not path.is_file():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        path.write_bytes(data[: data.rfind(b"\n") + 1])


def read_answers(out: Path) -> list[Answer]:
    """One answer per question: its latest line (a failed call asked again on a rerun is
    replaced by the new answer), in the order the questions were first asked."""
    path = out / "answers.jsonl"
    if not path.is_file():
        raise ConfigError(f"results={out}: no answers.jsonl there; run `gptnt diag run` first")
    answers: dict[str, Answer] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            try:
                answer = Answer.model_validate_json(line)
            except ValueError:
                continue  # a line cut off by a crash: that question is asked again
            answers[answer.id] = answer
    return list(answers.values())


def read_spec(out: Path) -> RunSpec:
    return RunSpec.model_validate_json((out / "run.json").read_text())


__all__ = ["Manifest"]
