"""What the Experiment Manager runs: one episode's spec and settings, and how it ended.

The manager is the caller of every other service; nothing calls it over the bus. Its inputs are
these models (from the CLI, or from the suite's episode queue as JSON).
"""

from __future__ import annotations

import re
from pathlib import Path, PurePath

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gptnt.bounded import RuleSeed
from gptnt.config import ONE_EPISODE_LAUNCH, Config, GameConfig, Launch, TimingConfig
from gptnt.players.clock import VirtualClock, parse_latency
from gptnt.players.scripted import episode_seed
from gptnt.players.seats import SeatChoice, resolve_lineup
from gptnt.protocol import Mode, Role
from gptnt.records import Clock, Conditions


class EpisodeSpec(BaseModel):
    """One episode to play. ``key`` is its natural key in the run (used for resume).

    ``defuser`` / ``expert`` name the players as the user did (``gptnt.players.seats``): a
    scripted policy, a player config name, a YAML path or a ``provider:model`` string. With
    ``solo`` the ``defuser`` model holds both roles and no Expert plays (paper §10.2).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    mission_id: str
    mode: Mode
    defuser: str = "oracle"  # scripted Defuser policy
    expert: str = "oracle"  # scripted Expert policy
    solo: bool = False  # one model (``defuser``) holds bomb and manual; no Expert service
    no_manual: bool = False  # solo only: the model plays without the manual
    manual: str = "generated"  # the manual a model Expert / solo model reads: generated or a dir
    seed: int = 0  # seed of the policies' own randomness (the bomb's seed is the mission's)
    repeat: int = Field(default=0, ge=0)  # which repeat of the mission this is (in ``key`` too)
    rule_seed: RuleSeed = 1  # the game's rules and the manual (1 = vanilla)
    time_factor: float = Field(default=1.0, gt=0)  # the mission's time limit scaled by this
    suite: str | None = None  # the suite the episode belongs to, if any
    attempt: int = Field(default=1, ge=1)
    clock: Clock = "wall"  # async: the wall clock (the paper's) or the virtual clock
    latency: str | None = None  # the virtual clock's latency model (``gptnt.players.clock``)
    defuser_base_url: str | None = None  # --defuser-base-url: the Defuser model's endpoint
    expert_base_url: str | None = None  # --expert-base-url: the Expert model's endpoint

    @model_validator(mode="after")
    def _clock_needs_async_and_latency(self) -> EpisodeSpec:
        if self.clock == "virtual":
            if self.mode != "async":
                raise ValueError(
                    "clock virtual: the virtual clock times async play; use mode async"
                )
            parse_latency(self.latency or "", name="latency")
        elif self.latency is not None:
            raise ValueError("latency: a latency model needs clock virtual")
        return self

    @property
    def virtual_clock(self) -> VirtualClock | None:
        """The virtual clock's latency model (``None``: the wall clock), for the players."""
        if self.clock != "virtual":
            return None
        return VirtualClock(latency=parse_latency(self.latency or ""))

    @classmethod
    def make(cls, mission_id: str, mode: Mode, defuser: str = "oracle", expert: str = "oracle",
             *, repeat: int = 0, seed: int = 0, attempt: int = 1, solo: bool = False,
             no_manual: bool = False, manual: str = "generated", rule_seed: int = 1,
             time_factor: float = 1.0, suite: str | None = None, clock: Clock = "wall",
             latency: str | None = None, defuser_base_url: str | None = None,
             expert_base_url: str | None = None) -> EpisodeSpec:  # fmt: skip
        players = (
            f"solo-{player_slug(defuser)}{'-nomanual' if no_manual else ''}" if solo
            else f"{player_slug(defuser)}-{player_slug(expert)}"
        )  # fmt: skip
        variant = (
            (f".t{time_factor:g}" if time_factor != 1 else "")
            + (f".rs{rule_seed}" if rule_seed != 1 else "")
            + (f".v{player_slug(latency or '')}" if clock == "virtual" else "")
        )
        key = f"{mission_id}.{mode}.{players}{variant}.r{repeat}"
        return cls(key=key, mission_id=mission_id, mode=mode, defuser=defuser, expert=expert,
                   seed=seed, repeat=repeat, attempt=attempt, solo=solo, no_manual=no_manual,
                   manual=manual, rule_seed=rule_seed, time_factor=time_factor, suite=suite,
                   clock=clock, latency=latency, defuser_base_url=defuser_base_url,
                   expert_base_url=expert_base_url)  # fmt: skip

    @property
    def policy_seed(self) -> int:
        """The seed of the players' own randomness: one per (mission, seed, repeat), so each
        mission and each repeat gets its own random Defuser (``gptnt.players.episode_seed``)."""
        return episode_seed(self.mission_id, self.seed, self.repeat)

    def lineup(self) -> tuple[SeatChoice, SeatChoice | None]:
        """The resolved players (``PlayerConfigError`` for an unknown one); no Expert if solo."""
        urls: dict[Role, str | None] = {
            "defuser": self.defuser_base_url,
            "expert": self.expert_base_url,
        }
        if self.solo:
            return resolve_lineup(None, None, solo=self.defuser, manual=self.manual,
                                  no_manual=self.no_manual, rule_seed=self.rule_seed,
                                  base_urls=urls)  # fmt: skip
        return resolve_lineup(
            self.defuser,
            self.expert,
            manual=self.manual,
            rule_seed=self.rule_seed,
            base_urls=urls,
        )

    def conditions(self, time_limit: int) -> Conditions:
        """What distinguishes this episode, for its record (``time_limit`` as played)."""
        return Conditions(
            suite=self.suite, repeat=self.repeat, seed=self.seed, solo=self.solo,
            no_manual=self.no_manual, manual=self.manual, time_factor=self.time_factor,
            time_limit=time_limit,
            pairing=f"solo:{self.defuser}" if self.solo else f"{self.defuser}/{self.expert}",
            clock=self.clock, latency=self.latency, defuser=self.defuser,
            expert=None if self.solo else self.expert,
        )  # fmt: skip


def player_slug(ref: str) -> str:
    """A player reference as a key part: a YAML path by its stem, ``:`` and ``/`` as ``_``."""
    if ref.endswith((".yaml", ".yml")):
        ref = PurePath(ref).stem
    return re.sub(r"[^A-Za-z0-9_.-]", "_", ref)


class Fork(BaseModel):
    """A counterfactual replay: the branch restores the parent's first ``turn`` turns (in
    record order) and plays on, its turn ``turn`` replaced by ``message`` if given."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    parent: Path  # the parent's episode directory
    turn: int = Field(ge=0)
    message: str | None = Field(default=None, min_length=1)


class EpisodeSettings(TimingConfig):
    """How episodes are run: the manager's waits and pacing (the fields of
    ``gptnt.config.TimingConfig``, with their one default there), the game section it hands
    whole to the game service, and how the services are launched."""

    game: GameConfig = GameConfig()
    launch: Launch = ONE_EPISODE_LAUNCH  # how the services start (``gptnt.config.Launch``)

    @classmethod
    def from_config(cls, config: Config, *, suite: bool = False) -> EpisodeSettings:
        """The settings of the layered configuration: its timing and game sections, and the
        launch in force for one episode or (``suite``) a suite's games."""
        return cls(
            game=config.game, launch=config.bus.launch_for(suite), **config.timing.model_dump()
        )
