"""What a suite will cost before it runs: model calls, tokens and dollars per player.

For each episode and each model seat in it the estimate walks the player's calls one by one,
as ``gptnt.players.conversation`` builds them:

- **calls**: sync — the Defuser's turns (time limit ÷ the 3 s a turn costs), times the share
  of that maximum an episode of this model typically uses (it ends early when solved or
  struck out); the Expert takes one turn per Defuser turn. Async — the seconds played
  divided by (the model's latency + the 0.5 s idle pause); both loops run.
- **input of call t**: system prompt (measured from ``prompts/``, characters ÷ 4) + manual
  (Expert and solo-with-manual: page text ÷ 4 + one image per page) + the text-only history
  of the t earlier turns (each: the turn's user text + the model's reply) + this turn's
  images (Defuser: the previous and the newest frame; zoomed into Simon or Morse, the 15
  earlier frames of the sequence too). A call never exceeds the model's context budget.
- **output**: the model's typical reply length per call.
- **cost**: ``configs/prices.yaml`` through ``Price.cost``. Uncached: every input token at the
  input price. With prompt caching: all but the newest turn's text and images are a prefix
  of the previous request and read from the cache; the rest is written (Anthropic, explicit
  breakpoints) or plain input (providers that cache on their own).

The behavioural numbers (share of turns used, latency, reply length) live in
``configs/plan.yaml``; ``scripts/plan_vs_paper.py`` compares the estimate with the tokens the
paper published per experiment (its Table H.24). The range is the estimate with the calls
scaled by the file's ``range`` factors (never beyond the sync maximum).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from gptnt.bounded import read_yaml
from gptnt.errors import PlayerConfigError
from gptnt.missions import Mission, get_mission
from gptnt.players.actions import Interaction
from gptnt.players.backends import CACHE_POINT_PROVIDERS, Price, Usage, load_prices
from gptnt.players.config import PlayerConfig, load_player_config
from gptnt.players.conversation import CHARS_PER_TOKEN
from gptnt.players.observation import MOTION_KINDS, SEQUENCE_LENGTH
from gptnt.players.prompts import Seat
from gptnt.players.seats import SCRIPTED_NAMES, SCRIPTED_SOLO, SOLO_SEATS
from gptnt.protocol import Mode, Role
from gptnt.resources import configs_dir, manual_dir
from gptnt.suites._grid import SuiteEpisode

PLAN_PATH = configs_dir() / "plan.yaml"
STEP_SECONDS = 3.0  # game time one sync Defuser turn costs (the mod's /timestep)
IDLE_SECONDS = 0.5  # async: each player's pause between turns


class Behaviour(BaseModel):
    """How a model typically plays, for the estimate (``configs/plan.yaml``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    sync_turn_share: float = Field(gt=0, le=1)
    """Share of the sync maximum of turns (time limit ÷ 3 s) an episode uses on average."""
    async_latency_s: float = Field(gt=0)
    """Wall seconds of one call (the bomb clock runs meanwhile)."""
    output_per_call: float = Field(gt=0)
    """Output tokens of a typical reply."""
    solo_turn_share: float | None = Field(None, gt=0, le=1)
    """Alone with the bomb (sync): the share of the maximum of turns used (default: as paired)."""
    solo_output_per_call: float | None = Field(None, gt=0)
    """Alone with the bomb: the reply length (default: as paired)."""


class PlanAssumptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    default: Behaviour
    models: dict[str, Behaviour] = Field(default_factory=dict)
    async_time_share: float = Field(gt=0, le=1)
    """Share of the time limit an async episode plays (most run out of time)."""
    motion_zoom_share: float = Field(ge=0, le=1)
    """Share of a motion module's turns spent zoomed into it (the frame sequence is sent)."""
    turn_text_tokens: int = Field(ge=0)
    """A turn's user text: feedback and the partner's messages."""
    range: tuple[float, float]
    """Low and high factor on the number of calls."""

    def behaviour(self, config: PlayerConfig) -> Behaviour:
        return self.models.get(config.name) or self.models.get(config.model_name) or self.default


def load_assumptions(path: Path | None = None) -> PlanAssumptions:
    source = path or PLAN_PATH
    return PlanAssumptions.model_validate(read_yaml(source))


# ----------------------------------------------------------------------------- sizes


@cache
def _system_tokens(interaction: Interaction, seat: Seat, mode: Mode) -> int:
    from gptnt.players.prompts import PromptSpec, system_prompt

    spec = PromptSpec(seat=seat, mode=mode, interaction=interaction)
    return math.ceil(len(system_prompt(spec)) / CHARS_PER_TOKEN)


@cache
def _manual_size(source: str) -> tuple[int, int]:
    """(text tokens, pages) of a manual. ``generated``: the repository's typeset v1 manual
    (other rule seeds change the wording, not the page count)."""
    from gptnt.manual import load, resolve_source

    source, _ = resolve_source(source)
    root = manual_dir() if source == "generated" else Path(source)
    manual = load(root)
    text = sum(len(p.text) for p in manual.pages)
    return math.ceil(text / CHARS_PER_TOKEN), len(manual.pages)


# ----------------------------------------------------------------------------- estimate


@dataclass
class Estimate:
    """Calls, tokens and cost of some seat-episodes; costs are ``None`` without a price."""

    seats: int = 0  # seat-episodes (an episode counts once per model seat in it)
    calls: float = 0.0
    input: float = 0.0
    output: float = 0.0
    cached_input: float = 0.0  # of ``input``, what a prompt cache would serve
    cost: float | None = 0.0
    cost_cached: float | None = 0.0
    low: float | None = 0.0
    high: float | None = 0.0

    def add(self, other: Estimate) -> None:
        self.seats += other.seats
        self.calls += other.calls
        self.input += other.input
        self.output += other.output
        self.cached_input += other.cached_input
        for name in ("cost", "cost_cached", "low", "high"):
            mine, theirs = getattr(self, name), getattr(other, name)
            setattr(self, name, None if mine is None or theirs is None else mine + theirs)


@dataclass
class Plan:
    """A suite's estimate: per (group, player), and in total."""

    episodes: int
    rows: dict[tuple[str, str], Estimate] = field(default_factory=dict)
    scripted: set[str] = field(default_factory=set)
    unpriced: set[str] = field(default_factory=set)

    @property
    def total(self) -> Estimate:
        total = Estimate()
        for row in self.rows.values():
            total.add(row)
        return total


def group_label(episode: SuiteEpisode, mission: Mission) -> str:
    """The experiment an episode belongs to, as the paper's Table H.24 groups them."""
    label = f"{episode.mode}, {mission.kind}, {episode.condition}"
    if episode.time_factor != 1:
        label += f", time ×{episode.time_factor:g}"
    return label


def plan(
    episodes: Iterable[SuiteEpisode],
    assumptions: PlanAssumptions | None = None,
    prices: dict[str, Price] | None = None,
) -> Plan:
    """The estimate of ``episodes`` (player names resolve as for ``gptnt run``); assumptions
    and prices default to ``configs/plan.yaml`` and ``configs/prices.yaml``."""
    a = assumptions or load_assumptions()
    prices = load_prices() if prices is None else prices
    catalogue: dict[str, Mission] = {}
    episodes = list(episodes)
    result = Plan(episodes=len(episodes))
    configs: dict[str, PlayerConfig | None] = {}
    seen: dict[tuple[object, ...], Estimate] = {}
    for ep in episodes:
        if ep.mission_id not in catalogue:
            catalogue[ep.mission_id] = get_mission(ep.mission_id)
        mission = catalogue[ep.mission_id]
        seats = _seats(ep)
        for ref, _seat in seats:
            if ref not in configs:
                configs[ref] = _config(ref, _seat)
        share = _turn_share([configs[ref] for ref, _ in seats], ep, a)
        motion = _motion_share(mission)
        limit = mission.config.time_limit * ep.time_factor
        for ref, seat in seats:
            config = configs[ref]
            if config is None:
                result.scripted.add(ref)
                continue
            price = prices.get(config.model_name)
            if price is None:
                result.unpriced.add(ref)
            memo = (ref, seat, ep.mode, limit, motion, ep.manual, share)
            if memo not in seen:
                seen[memo] = _seat_estimate(config, seat, ep, mission, a, price, share)
            one = seen[memo]
            result.rows.setdefault((group_label(ep, mission), ref), Estimate()).add(one)
    return result


def _seats(ep: SuiteEpisode) -> list[tuple[str, Seat]]:
    """(player, prompt seat) of each seat of the episode."""
    if ep.expert is None:
        return [(ep.defuser, "solo-no-manual" if ep.no_manual else "solo")]
    return [(ep.defuser, "defuser"), (ep.expert, "expert")]


def _config(ref: str, seat: Seat) -> PlayerConfig | None:
    """The model config of a player, ``None`` for a scripted one (``PlayerConfigError`` names
    a bad one). Like ``gptnt.players.seats`` but without reading the manual."""
    role: Role = "expert" if seat == "expert" else "defuser"
    if (seat in SOLO_SEATS and ref in SCRIPTED_SOLO) or ref in SCRIPTED_NAMES[role]:
        return None
    try:
        return load_player_config(ref)
    except PlayerConfigError as err:
        raise PlayerConfigError(f"--players {ref!r}: {err}") from None


def _turn_share(configs: list[PlayerConfig | None], ep: SuiteEpisode, a: PlanAssumptions) -> float:
    """Sync: the share of the maximum of turns the episode uses. The Defuser's (it acts on the
    bomb, so it decides when the episode ends); the Expert's model when the Defuser is
    scripted. Both seats take that many turns."""
    models = [c for c in configs if c is not None]
    if not models:
        return 1.0
    b = a.behaviour(models[0])
    return (b.solo_turn_share if ep.solo else None) or b.sync_turn_share


def _seat_estimate(
    config: PlayerConfig, seat: Seat, ep: SuiteEpisode, mission: Mission,
    a: PlanAssumptions, price: Price | None, share: float,
) -> Estimate:  # fmt: skip
    calls = _calls(config, ep, mission, a, share)
    mid = _walk(config, seat, ep, mission, a, calls)
    low = _walk(config, seat, ep, mission, a, calls * a.range[0])
    high = _walk(config, seat, ep, mission, a, _cap(ep, mission, calls * a.range[1]))
    est = Estimate(seats=1, calls=calls, input=mid.input, output=mid.output,
                   cached_input=mid.cached)  # fmt: skip
    if price is None:
        est.cost = est.cost_cached = est.low = est.high = None
        return est
    est.cost = mid.cost(price, cached=False)
    est.cost_cached = mid.cost(price, cached=True, writes=config.provider in CACHE_POINT_PROVIDERS)
    est.low = low.cost(price, cached=False)
    est.high = high.cost(price, cached=False)
    return est


def _motion_share(mission: Mission) -> float:
    """Share of the mission's modules whose frames move (their turns send a frame sequence)."""
    components = mission.config.components
    return sum(c in MOTION_KINDS for c in components) / len(components)


def _max_sync_turns(ep: SuiteEpisode, mission: Mission) -> float:
    return mission.config.time_limit * ep.time_factor / STEP_SECONDS


def _calls(
    config: PlayerConfig, ep: SuiteEpisode, mission: Mission, a: PlanAssumptions, share: float
) -> float:
    if ep.mode == "sync":
        return _max_sync_turns(ep, mission) * share
    b = a.behaviour(config)
    played = mission.config.time_limit * ep.time_factor * a.async_time_share
    return played / (b.async_latency_s + IDLE_SECONDS)


def _cap(ep: SuiteEpisode, mission: Mission, calls: float) -> float:
    return min(calls, _max_sync_turns(ep, mission)) if ep.mode == "sync" else calls


@dataclass
class _Walk:
    input: float = 0.0
    output: float = 0.0
    cached: float = 0.0  # input a prompt cache serves
    written: float = 0.0  # input written to the cache (the rest of each request)

    def cost(self, price: Price, *, cached: bool, writes: bool = False) -> float:
        usage = Usage(
            input_tokens=round(self.input), output_tokens=round(self.output),
            cache_read_tokens=round(self.cached) if cached else 0,
            cache_write_tokens=round(self.written) if cached and writes else 0,
        )  # fmt: skip
        return price.cost(usage)


def _walk(
    config: PlayerConfig, seat: Seat, ep: SuiteEpisode, mission: Mission,
    a: PlanAssumptions, calls: float,
) -> _Walk:  # fmt: skip
    """Tokens of ``calls`` consecutive calls (a fractional last call counts pro rata)."""
    b = a.behaviour(config)
    solo = seat in ("solo", "solo-no-manual")
    reply = (b.solo_output_per_call if solo else None) or b.output_per_call
    pinned = _system_tokens(config.interaction_spec, seat, ep.mode)
    if seat in ("expert", "solo"):
        text, pages = _manual_size(ep.manual)
        pinned += text + pages * config.tokens_per_image
    images = 0.0
    if seat != "expert":
        extra = (SEQUENCE_LENGTH - 1) * a.motion_zoom_share * _motion_share(mission)
        images = (2 + extra) * config.tokens_per_image
    budget = 0.9 * config.input_limit if config.input_limit else math.inf
    growth = a.turn_text_tokens + reply
    walk = _Walk()
    history = 0.0
    whole = math.floor(calls)
    for t in range(whole + 1):
        weight = 1.0 if t < whole else calls - whole
        if weight <= 0:
            break
        first = images - config.tokens_per_image if images and not t else images  # no previous yet
        request = min(pinned + history + a.turn_text_tokens + first, budget)
        fresh = a.turn_text_tokens + first + (reply if t else pinned)
        walk.input += weight * request
        walk.output += weight * reply
        walk.cached += weight * max(0.0, request - fresh)
        walk.written += weight * min(fresh, request)
        history = min(history + growth, max(0.0, budget - pinned))
    return walk


def by_player(p: Plan) -> dict[str, Estimate]:
    """The plan's rows summed per player."""
    totals: dict[str, Estimate] = defaultdict(Estimate)
    for (_group, player), row in p.rows.items():
        totals[player].add(row)
    return dict(totals)
