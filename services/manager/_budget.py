"""One time budget per episode: every deadline of a game, derived in this one place.

The inputs are the players (each model's ``turn_timeout_s`` and ``transport_retries``; a
scripted player's ``SCRIPTED_TURN_S``), the timing and game sections of the run's settings, and
the mission as played (time limit, time step, time scale). Nothing below is a free constant:

- **turn** (per role) — the manager's deadline on one turn: ``timing.turn_timeout_s`` if set,
  else the player's own.
- **call** (per model) — what the turn leaves its model call (every attempt and every wait
  between attempts, a ``Retry-After`` included): the turn less the turn's other waits, each at
  its own deadline — draining the inbox and delivering the reply (Redis calls), the Defuser's
  observation and its action (game calls; an Expert's message is a Redis call). So a call can
  never make its turn overrun, and a turn that keeps its deadline never cuts its call.
- **episode** (the wall limit, a last resort: every wait inside has its own deadline) — sync:
  the clock only moves on ``/timestep``, so a game lasts at most ``ceil(time limit / step)``
  rounds, each at most a Defuser turn, two game calls, the step's sleep and an Expert turn;
  async: the game ends on its clock (``time limit / time scale`` wall seconds after resume),
  seen within ``backend_failures`` polls, then the turns in flight get ``GRACE_S``; async on
  the virtual clock (the game paused, ``gptnt.players.clock``): each turn moves its role's
  start on the game clock by at least (idle pause + the latency model's least latency) × time
  scale, so each role plays at most ``ceil(time limit / that) + 1`` turns, a Defuser turn after
  one game call (the advance). All add the start-up (launch, users, the game's start and
  lights-on, the players' readiness) and the final calls. A game whose every turn keeps its
  deadline can never hit it.
- **reflection** — the reflection step after a game that ended on the bomb (a model whose
  config asks for it, ``PlayerConfig.reflection``): every reflecting player at once, each
  within its turn's deadline (its call within the turn's call budget, like a turn's), so the
  step adds the longest of those turns to the episode's limit.

- **liveness** (per service) — how long the watchdog lets a live service's heartbeat stay
  silent before it calls the service hung: the longest single wait this episode places on that
  service (a player's turn or its stop; the game's call, or a start-up step), plus one beat and
  one Redis call. A service silent for longer could not have kept that wait's deadline; one
  silent for less (starved by a loaded machine) may still keep it, so it is never called dead.
  (A service process that *exits* is seen at once, whatever this bound.)

``gptnt config show --mission ID`` prints the budget of the players and mission given.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from gptnt.config import GameConfig, Launch, TimingConfig
from gptnt.errors import ConfigError
from gptnt.players.clock import MIN_LATENCY_S, TOKENS_FIRST_TOKEN_S, VirtualClock
from gptnt.players.seats import SeatChoice
from gptnt.protocol import MissionConfig, Mode, Role
from gptnt.services.bus import BEAT_S, REDIS_CALL_S, Service

SCRIPTED_TURN_S = 180.0
"""Wall seconds a scripted player's turn may take (they answer in milliseconds; this bounds a
hung service, not the policy)."""
GRACE_S = 5.0
"""Wall seconds the turns in flight at game over may take to finish (async)."""
SPAWN_S = 30.0
"""Wall seconds one fork request to the warm server may take."""
MIN_CALL_S = 1.0
"""The least a model call may be left by its turn; a turn leaving less is refused up front."""


class TurnBudget(BaseModel):
    """One role's deadlines, wall seconds."""

    model_config = ConfigDict(frozen=True)

    role: Role
    turn_s: float
    """The manager's deadline on one turn of this role."""
    other_s: float
    """What the turn's other waits may take together (inbox, game or partner, reply)."""
    call_s: float | None
    """One model call's deadline, attempts and waits included; ``None``: scripted."""
    attempts: int = 1
    """Attempts a call may make (1 + ``transport_retries``), while ``call_s`` lasts."""


class Liveness(BaseModel):
    """How long one service's heartbeat may stay silent before the watchdog calls it hung."""

    model_config = ConfigDict(frozen=True)

    service: Service
    silence_s: float
    longest_wait: str
    """What the bound is derived from (for ``gptnt config show``)."""


class Budget(BaseModel):
    """Every deadline of one episode (``Budget.of``), wall seconds."""

    model_config = ConfigDict(frozen=True)

    mode: Mode
    turns: tuple[TurnBudget, ...]
    startup_s: float
    """Launch, the game's users, its start and lights-on, and the players' readiness."""
    rounds: int | None
    """sync: the most Defuser-then-Expert rounds a game can last; virtual clock: the most
    turns of one role; None in wall-clock async."""
    round_s: float | None
    """sync: the longest one round can take."""
    game_over_s: float | None
    """async: how long after resume the game-over event may take (clock plus detection)."""
    reflection_s: float = 0.0
    """The reflection step: the longest turn of a player that reflects (0: none does)."""
    episode_s: float
    """The episode's wall limit."""
    liveness: tuple[Liveness, ...] = ()
    """Per service, the heartbeat silence that counts as hung."""

    @classmethod
    def of(
        cls,
        lineup: Sequence[SeatChoice],
        mode: Mode,
        mission: MissionConfig,
        timing: TimingConfig,
        game: GameConfig,
        launch: Launch,
        clock: VirtualClock | None = None,
    ) -> Budget:
        """The budget of one episode; ``ConfigError`` (one line, the setting and the fix) when
        a turn leaves its model call less than ``MIN_CALL_S``."""
        turns = tuple(_turn(c, timing) for c in lineup)
        by_role = {t.role: t.turn_s for t in turns}
        startup = (
            (SPAWN_S * (1 + len(turns)) if launch == "warm" else 0.0)
            + 3 * REDIS_CALL_S  # the game's users; the margins of the two readiness waits
            + 4 * game.startup_timeout_s  # the game ready, its start, the players, lights on
        )
        reflect = max((t.turn_s for c, t in zip(lineup, turns, strict=True) if _reflects(c)),
                      default=0.0)  # fmt: skip
        end = 2 * timing.game_call_s + reflect  # the final state (async: and the pause)
        alive = _liveness(turns, timing, game)
        if mode == "sync":
            rounds = math.ceil(mission.time_limit * 1000 / mission.time_step_size)
            round_s = (
                by_role.get("defuser", 0.0) + 2 * timing.game_call_s + timing.step_sleep_s
                + by_role.get("expert", 0.0)
            )  # fmt: skip
            return cls(
                mode=mode, turns=turns, startup_s=startup, rounds=rounds, round_s=round_s,
                game_over_s=None, reflection_s=reflect, liveness=alive,
                episode_s=startup + rounds * round_s + end,
            )  # fmt: skip
        if clock is not None:  # async on the virtual clock: turn after turn, the game paused
            least = min(_least_advance(c, clock, timing) for c in lineup)
            rounds = math.ceil(mission.time_limit / least) + 1
            round_s = sum(by_role.values()) + timing.game_call_s  # one advance per Defuser turn
            return cls(
                mode=mode, turns=turns, startup_s=startup, rounds=rounds, round_s=round_s,
                game_over_s=None, reflection_s=reflect, liveness=alive,
                episode_s=startup + rounds * round_s + end,
            )  # fmt: skip
        over = game_over_s(mission, game)
        episode = startup + timing.game_call_s + over + GRACE_S + end
        return cls(
            mode=mode, turns=turns, startup_s=startup, rounds=None, round_s=None,
            game_over_s=over, reflection_s=reflect, liveness=alive, episode_s=episode,
        )  # fmt: skip

    def turn(self, role: Role) -> TurnBudget:
        return next(t for t in self.turns if t.role == role)

    def silence_s(self, service: Service) -> float:
        """How long ``service``'s heartbeat may stay silent before it counts as hung."""
        return next(a.silence_s for a in self.liveness if a.service == service)

    def rows(self) -> list[tuple[str, float | int, str]]:
        """``(deadline, value, how it is derived)`` for ``gptnt config show``."""
        out: list[tuple[str, float | int, str]] = []
        for t in self.turns:
            out.append((f"{t.role} turn", t.turn_s, "timing.turn_timeout_s, else the player's"))
            if t.call_s is not None:
                out.append((f"{t.role} model call", t.call_s,
                            (f"the turn less its other waits ({t.other_s:g} s); "
                            f"up to {t.attempts} attempts within it")))  # fmt: skip
        out.append(("start-up", self.startup_s, "launch, users, game start, readiness"))
        if self.rounds is not None and self.round_s is not None and self.mode == "sync":
            out.append(("sync rounds at most", self.rounds, "ceil(time limit / time step)"))
            out.append(("sync round", self.round_s, "Defuser + 2 game calls + sleep + Expert"))
        elif self.rounds is not None and self.round_s is not None:
            out.append(
                (
                    "virtual-clock turns per role at most",
                    self.rounds,
                    "ceil(time limit / least advance of a turn) + 1",
                )
            )
            out.append(("virtual-clock round", self.round_s, "every role's turn + an advance"))
        if self.game_over_s is not None:
            out.append(("async game over", self.game_over_s,
                        "time limit / time scale + backend_failures polls"))  # fmt: skip
        if self.reflection_s:
            out.append(("reflection step", self.reflection_s,
                        "the longest turn of a player that reflects"))  # fmt: skip
        out.append((f"{self.mode} episode wall limit", self.episode_s, "all of the above"))
        for a in self.liveness:
            out.append((f"{a.service} heartbeat silence", a.silence_s,
                        f"its longest wait ({a.longest_wait}) + a beat + a Redis call"))  # fmt: skip
        return out


def _liveness(
    turns: Sequence[TurnBudget], timing: TimingConfig, game: GameConfig
) -> tuple[Liveness, ...]:
    """Each service's silence bound: its longest single wait, one beat, one Redis call (the
    beat's own write)."""
    slack = BEAT_S + REDIS_CALL_S
    waits: list[tuple[Service, float, str]] = [
        (t.role, max(t.turn_s, timing.stop_timeout_s), "its turn or its stop") for t in turns
    ]
    waits.append(("game", max(timing.game_call_s, game.startup_timeout_s),
                  "a game call or a start-up step"))  # fmt: skip
    return tuple(
        Liveness(service=name, silence_s=wait + slack, longest_wait=f"{what}, {wait:g} s")
        for name, wait, what in waits
    )


def check_turns(lineup: Sequence[SeatChoice | None], timing: TimingConfig) -> None:
    """Refuse, up front (``ConfigError``), a lineup one of whose turns leaves its model call
    no time (``Budget.of`` would, once the episode starts)."""
    for choice in lineup:
        if choice is not None:
            _turn(choice, timing)


def game_over_s(mission: MissionConfig, game: GameConfig) -> float:
    """async: wall seconds after resume within which the game-over event (or the backend's
    failure) must arrive: the clock's run, then as many failed polls as make the backend dead,
    then the event's publication."""
    clock = mission.time_limit / mission.time_scale
    detect = game.backend_failures * (game.poll_interval_s + game.call_deadline_s)
    return clock + detect + REDIS_CALL_S


def _reflects(choice: SeatChoice) -> bool:
    return choice.config is not None and choice.config.reflection


def _least_advance(choice: SeatChoice, clock: VirtualClock, timing: TimingConfig) -> float:
    """Virtual clock: the least game time one turn of ``choice`` moves its role's start."""
    latency = clock.latency
    if latency.kind == "fixed" and latency.seconds is not None:
        least = latency.seconds
    elif latency.kind == "tokens":
        least = choice.config.first_token_s if choice.config else TOKENS_FIRST_TOKEN_S
    else:
        least = MIN_LATENCY_S
    return (timing.idle_sleep_s + max(least, MIN_LATENCY_S)) * clock.time_scale


def _turn(choice: SeatChoice, timing: TimingConfig) -> TurnBudget:
    config = choice.config
    if timing.turn_timeout_s is not None:
        turn = timing.turn_timeout_s
        where = "timing.turn_timeout_s"
    elif config is not None:
        turn = config.turn_timeout_s
        where = f"player {config.name or config.model}: turn_timeout_s"
    else:
        turn = SCRIPTED_TURN_S
        where = "the scripted turn"
    # drain + reply delivery are Redis calls; the Defuser observes and acts on the game, the
    # Expert's one dispatch is a message (a Redis call).
    other = 2 * REDIS_CALL_S + (
        2 * timing.game_call_s if choice.role == "defuser" else REDIS_CALL_S
    )
    if config is None:
        return TurnBudget(role=choice.role, turn_s=turn, other_s=other, call_s=None)
    call = turn - other
    if call < MIN_CALL_S:
        raise ConfigError(
            f"{where} {turn:g} s leaves the {choice.role}'s model call {call:g} s after the "
            f"turn's other waits ({other:g} s: timing.game_call_s {timing.game_call_s:g} s and "
            f"Redis calls); raise it above {other + MIN_CALL_S:g} s or lower timing.game_call_s"
        )
    return TurnBudget(
        role=choice.role, turn_s=turn, other_s=other, call_s=call,
        attempts=1 + config.transport_retries,
    )  # fmt: skip
