"""A suite expanded into its episodes, with the run-control flags applied.

The grid is ``repeat × time factor × rule seed × mode × pairing × mission``, missions varying
fastest, so ``--limit N`` keeps the first N of that order. ``--only`` takes module kinds by any
of their names (``Wires``, ``The Button``, ``BigButton``), mission ids (``Wires-234``, ``3``) and pairings (``oracle/random``,
``solo:oracle``); within a category any token may match, across categories all must.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from gptnt.errors import ConfigError
from gptnt.missions import Mission, canonical_id, get_mission
from gptnt.protocol import MODULE_KINDS, Mode, kind_or_none, kind_title
from gptnt.suites._format import Suite

Condition = Literal["self-play", "other-play", "solo", "solo-no-manual"]


def pairing_name(defuser: str, expert: str | None) -> str:
    """A suite's name for a pairing (``--only`` takes it): ``defuser/expert``, or ``solo:player``."""
    return f"solo:{defuser}" if expert is None else f"{defuser}/{expert}"


class SuiteEpisode(BaseModel):
    """One episode of a suite, with every setting that distinguishes it (all recorded)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    suite: str
    mission_id: str
    mode: Mode
    defuser: str  # the solo player when ``solo``
    expert: str | None  # ``None`` when solo
    no_manual: bool = False
    manual: str = "generated"
    repeat: int = 0
    time_factor: float = 1.0
    rule_seed: int = 1

    @property
    def solo(self) -> bool:
        return self.expert is None

    @property
    def pairing(self) -> str:
        return pairing_name(self.defuser, self.expert)

    @property
    def condition(self) -> Condition:
        if self.expert is None:
            return "solo-no-manual" if self.no_manual else "solo"
        return "self-play" if self.defuser == self.expert else "other-play"


@dataclass(frozen=True)
class Selection:
    """Run control: what of a suite to play, and the ablations laid over it."""

    players: Sequence[str] | None = None
    pair: tuple[str, str] | None = None  # one fixed Defuser/Expert pairing instead
    only: Sequence[str] = ()
    modes: Sequence[str] | None = None
    repeats: int | None = None
    limit: int | None = None
    solo: bool = False
    no_manual: bool = False
    manual: str | None = None
    rule_seeds: Sequence[int] | None = None  # replace the suite's rule seeds


def _pairs(suite: Suite, players: Sequence[str], solo: bool, pair: tuple[str, str] | None
           ) -> list[tuple[str, str | None]]:  # fmt: skip
    if pair is not None:
        if solo:
            raise ConfigError("--defuser/--expert name a pair; --solo and --no-manual seat one")
        return [pair]
    if solo or suite.pairings == "solo":
        return [(p, None) for p in players]
    if suite.pairings == "self":
        return [(p, p) for p in players]
    return [(d, e) for d in players for e in players]


def expand(suite: Suite, selection: Selection | None = None) -> list[SuiteEpisode]:
    """The suite's episodes in play order (``ConfigError`` for a bad flag, naming it).

    Mission by mission: every condition of one mission (pairing, mode, rule seed, time factor)
    before the next mission, and every repeat of the grid before the next. So the episodes a
    ``--limit``, a budget cap or an interruption leaves played compare the conditions on the
    same missions (paired), instead of covering one condition alone."""
    sel = selection or Selection()
    players = list(dict.fromkeys(sel.players or suite.players))
    modes = list(sel.modes or suite.modes)
    bad = [m for m in modes if m not in suite.modes]
    if bad:
        raise ConfigError(f"--modes: {', '.join(bad)} not among the suite's {suite.modes}")
    no_manual = sel.no_manual or suite.no_manual
    solo = sel.solo or no_manual
    pairs = _pairs(suite, players, solo, sel.pair)
    missions = [get_mission(m) for m in suite.missions]
    keep = _only_filter(sel.only, missions, pairs)
    rule_seeds = list(sel.rule_seeds) if sel.rule_seeds else suite.rule_seeds
    episodes = [
        SuiteEpisode(
            suite=suite.name, mission_id=mission.id, mode=mode, defuser=d, expert=e,
            no_manual=no_manual and e is None, manual=sel.manual or suite.manual, repeat=r,
            time_factor=factor, rule_seed=seed,
        )
        for r in range(sel.repeats or suite.repeats)
        for mission in missions
        for factor in suite.time_factors
        for seed in rule_seeds
        for mode in modes
        for d, e in pairs
        if keep(mission, d, e)
    ]  # fmt: skip
    if not episodes:
        raise ConfigError("--only: no episode of the suite matches")
    return episodes[: sel.limit] if sel.limit is not None else episodes


def _only_filter(
    only: Sequence[str], missions: list[Mission], pairs: list[tuple[str, str | None]]
) -> Callable[[Mission, str, str | None], bool]:
    modules = {m.config.components[0] for m in missions if m.kind == "single"} | {
        c for m in missions for c in m.config.components
    }
    ids = {m.id for m in missions}
    pairings = {pairing_name(d, e): (d, e) for d, e in pairs}
    wanted: dict[str, set[str]] = {"module": set(), "mission": set(), "pairing": set()}
    for token in (t.strip() for t in only):
        if not token:
            continue
        kind = kind_or_none(token)
        if canonical_id(token) in ids:
            wanted["mission"].add(canonical_id(token))
        elif kind in modules:
            wanted["module"].add(kind)
        elif token in pairings:
            wanted["pairing"].add(token)
        else:
            present = ", ".join(kind_title(k) for k in MODULE_KINDS if k in modules)
            raise ConfigError(
                f"--only {token!r}: not a module kind, mission id or pairing of this suite "
                f"(module kinds: {present}; pairings: {', '.join(pairings)})"
            )

    def keep(mission: Mission, defuser: str, expert: str | None) -> bool:
        return (
            (not wanted["mission"] or mission.id in wanted["mission"])
            and (not wanted["module"] or bool(wanted["module"] & set(mission.config.components)))
            and (not wanted["pairing"] or pairing_name(defuser, expert) in wanted["pairing"])
        )

    return keep
