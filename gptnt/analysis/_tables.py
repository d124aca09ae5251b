"""The paper's analyses, computed from episode records (``RecordedEpisode``), as ``Table`` values.

Grouping is by *pairing* (the Defuser's and the Expert's labels, scripted players labelled as
such) and *mode*. Success rates count the episodes with an outcome (``scored``); crashed,
parked and incomplete episodes are not outcomes of the players, so each table that rates
episodes shows them in a column of their own instead of dropping them silently.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from gptnt.analysis._load import RecordedEpisode, by_dir, first_difference, parent_of
from gptnt.analysis._stats import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, Mean, Rate, mean
from gptnt.analysis._table import Cell, Table
from gptnt.protocol import ROLES, Role, kind_title
from gptnt.records import UNKNOWN, GameStep, TurnEvent, add_costs

OUTCOME_WORDS = {"solved": "solved", "timeout": "timeout", "strikeout": "strikeout",
                 "crashed": "crashed", "interrupted": "interrupted"}  # fmt: skip
"""How a cell names an outcome: words, not emoji (which print as empty boxes where the
browser or terminal has no emoji font)."""
LOCALISATION_CODES = ("unknown_label", "off_screen")
"""Issue codes of an interaction that named a location not on the screen."""

K = TypeVar("K")


def _group(
    episodes: Iterable[RecordedEpisode], key: Callable[[RecordedEpisode], K]
) -> dict[K, list[RecordedEpisode]]:
    groups: dict[K, list[RecordedEpisode]] = defaultdict(list)
    for e in episodes:
        groups[key(e)].append(e)
    return dict(sorted(groups.items(), key=lambda kv: _sort_key(kv[0])))


def _sort_key(key: object) -> tuple:
    parts = key if isinstance(key, tuple) else (key,)
    return tuple(_mission_order(str(p)) for p in parts)


def _mission_order(value: str) -> tuple[bool, int, str]:
    return (not value.isdigit(), int(value) if value.isdigit() else 0, value)


def _solved(episodes: Sequence[RecordedEpisode]) -> Rate:
    scored = [e for e in episodes if e.scored]
    return Rate(sum(e.outcome == "solved" for e in scored), len(scored))


def _not_scored(episodes: Sequence[RecordedEpisode]) -> int:
    return sum(not e.scored for e in episodes)


def _bullets(e: RecordedEpisode) -> str:
    if e.summary is None or not e.summary.modules:
        return ""
    return "".join("●" if m.solved else "○" for m in e.summary.modules)


def _single(e: RecordedEpisode) -> bool:
    """A single-module mission: one module on the bomb; without a summary (a crash), the
    catalogue's naming of single-module missions (``<Kind>-<seed>``) decides."""
    if e.summary is not None and e.summary.modules:
        return len(e.summary.modules) == 1
    return "-" in e.mission_id


def _minutes(e: RecordedEpisode) -> float | None:
    used = e.summary.game_time_used if e.summary else None
    return used / 60 if used else None


# ---------------------------------------------------------------------------- bookkeeping


def episode_status(episodes: Sequence[RecordedEpisode]) -> Table:
    rows = []
    for (run, pairing, mode), group in _group(
        episodes, lambda e: (e.run, e.pairing, e.mode)
    ).items():
        status = Counter(e.status for e in group)
        scored = sum(e.scored for e in group)
        crashed = len(group) - scored - status["parked"] - status["incomplete"]
        rows.append((run, pairing, mode, len(group), scored, crashed, status["parked"],
                     status["incomplete"], sum(e.attempts for e in group), _solved(group)))  # fmt: skip
    return Table(
        "episodes", "Episodes per run, pairing and mode", "(bookkeeping)",
        ("run", "pairing", "mode", "episodes", "with outcome", "crashed", "parked", "incomplete",
         "attempts", "solved"),
        tuple(rows),
        "Crashed: the latest attempt failed for a reason that is not the players' (it may be "
        "retried); parked: it crashed on every allowed attempt; incomplete: it started but the "
        "run stopped before it ended. None of these counts in a success rate's n.",
    )  # fmt: skip


def episode_index(episodes: Sequence[RecordedEpisode]) -> Table:
    rows = []
    for e in sorted(episodes, key=lambda e: (e.run, _mission_order(e.mission_id), e.key)):
        s = e.summary
        modules = f"{s.modules_solved}/{len(s.modules)}" if s else None
        rows.append((e.run, e.episode_id, e.mission_id, e.mode, e.defuser, e.expert, e.status,
                     e.outcome, modules, s.strikes if s else None, len(e.turns),
                     (s.reason if s else e.ended.reason if e.ended else "no summary"),
                     e.manual))  # fmt: skip
    return Table(
        "episode_index", "Every episode", "(viewer index)",
        ("run", "episode", "mission", "mode", "defuser", "expert", "status", "outcome",
         "modules", "strikes", "turns", "reason", "manual"),
        tuple(rows),
        "Manual: the one a model read, by identity (generated:rule-seed-N:… typeset from the "
        "rules; imported:<sha256> the official manual the paper's Expert read); none: played "
        "without; –: no model read one.",
    )  # fmt: skip


# ---------------------------------------------------------------------------- outcomes


def outcomes(episodes: Sequence[RecordedEpisode]) -> Table:
    """Tables 2–3: per mission, pairing and mode, the outcome icons with module bullets."""
    rows = []

    def key(e: RecordedEpisode) -> tuple[str, str, str]:
        return (e.mission_id, e.pairing, e.mode)

    for (mission, pairing, mode), group in _group(episodes, key).items():
        icons = "; ".join(
            f"{OUTCOME_WORDS.get(e.outcome, 'crashed')} {_bullets(e)}".strip() for e in group
        )
        scored = [e for e in group if e.scored]
        present = sum(len(e.summary.modules) for e in scored if e.summary)
        solved = sum(e.summary.modules_solved for e in scored if e.summary)
        rows.append((mission, pairing, mode, icons, Rate(solved, present), _solved(group),
                     _not_scored(group)))  # fmt: skip
    return Table(
        "outcomes", "Outcome per mission (icons, module bullets)", "Tables 2–3",
        ("mission", "pairing", "mode", "outcomes", "modules solved", "solved", "not scored"),
        tuple(rows),
        "Each episode: its outcome (solved, timeout, strikeout; crashed also for parked and "
        "incomplete) and ● solved ○ unsolved per module, in bomb order; repeats separated by ';'.",
    )  # fmt: skip


def module_types(episodes: Sequence[RecordedEpisode]) -> Table:
    """Tables 4–5, 11: success per module type — single-module missions, and each module of
    that type on the multi-module bombs."""
    single: dict[tuple[str, str, str], list[RecordedEpisode]] = defaultdict(list)
    within: dict[tuple[str, str, str], list[bool]] = defaultdict(list)
    for e in episodes:
        modules = e.summary.modules if e.summary else []
        if _single(e):
            kind = modules[0].name if modules else e.mission_id.rsplit("-", 1)[0]
            single[(e.pairing, e.mode, kind)].append(e)
        elif e.scored:
            for m in modules:
                within[(e.pairing, e.mode, m.name)].append(m.solved)
    rows = []
    for pairing, mode, kind in sorted(set(single) | set(within)):
        group = single.get((pairing, mode, kind), [])
        flags = within.get((pairing, mode, kind), [])
        rows.append((pairing, mode, kind_title(kind), _solved(group), Rate(sum(flags), len(flags)),
                     _not_scored(group)))  # fmt: skip
    return Table(
        "module_types", "Success rate per module type", "Tables 4–5, 11",
        ("pairing", "mode", "module", "single-module missions solved",
         "modules solved on multi-module bombs", "not scored"),
        tuple(rows),
    )  # fmt: skip


def failure_split(episodes: Sequence[RecordedEpisode]) -> Table:
    """Appendix M: how the unsolved episodes ended (timeout or strikeout)."""
    rows = []

    def kind(e: RecordedEpisode) -> str:
        return "single" if _single(e) else "multi"

    for (pairing, mode, missions), group in _group(
        episodes, lambda e: (e.pairing, e.mode, kind(e))
    ).items():
        scored = [e for e in group if e.scored]
        n = len(scored)
        count = Counter(e.outcome for e in scored)
        solved_modules = [float(e.summary.modules_solved) for e in scored if e.summary]
        at_timeout = [
            float(e.summary.strikes) for e in scored if e.summary and e.outcome == "timeout"
        ]
        at_strikeout = [
            e.summary.game_time_used
            for e in scored
            if e.summary and e.outcome == "strikeout" and e.summary.game_time_used is not None
        ]
        rows.append((pairing, mode, missions, Rate(count["solved"], n), Rate(count["timeout"], n),
                     Rate(count["strikeout"], n), mean(solved_modules), mean(at_timeout),
                     mean(at_strikeout, 1), _not_scored(group)))  # fmt: skip
    return Table(
        "failure_split", "Success rates: solved, timeout and strikeout", "Appendix M (Tables M.28–29, N.30–31)",
        ("pairing", "mode", "missions", "solved", "timeout", "strikeout",
         "modules solved per episode", "strikes at timeout", "game seconds at strikeout",
         "not scored"),
        tuple(rows),
    )  # fmt: skip


# ---------------------------------------------------------------------------- roles


def crossplay(episodes: Sequence[RecordedEpisode]) -> Table:
    """Section 7.1: a Defuser × Expert matrix of success rates (one column per Expert)."""
    experts = sorted({e.expert for e in episodes})
    rows: list[tuple[Cell, ...]] = []
    for (defuser, mode), group in _group(
        episodes, lambda e: (e.defuser + e.condition, e.mode)
    ).items():
        by_expert = _group(group, lambda e: e.expert)
        rows.append((defuser, mode, *(_solved(by_expert.get(x, [])) for x in experts)))
    return Table(
        "crossplay", "Defuser × Expert success matrix", "Section 7.1",
        ("defuser", "mode", *(f"expert: {x}" for x in experts)),
        tuple(rows),
        "Rows: the Defuser; columns: the Expert. n=0 where the pairing was not played.",
    )  # fmt: skip


def marginals(episodes: Sequence[RecordedEpisode]) -> Table:
    """Section 7.1: each player's success rate in a role, over all its partners."""
    rows = []
    for role in ROLES:
        other = "expert" if role == "defuser" else "defuser"

        def key(e: RecordedEpisode, r: Role = role) -> tuple[str, str]:
            return (getattr(e, r) + e.condition, e.mode)

        for (player, mode), group in _group(episodes, key).items():
            partners = len({getattr(e, other) for e in group})
            rows.append((player, role, mode, partners, _solved(group), _not_scored(group)))
    return Table(
        "marginals", "Each player's score over its partners", "Section 7.1",
        ("player", "role", "mode", "partners", "solved", "not scored"),
        tuple(rows),
    )  # fmt: skip


# ---------------------------------------------------------------------------- communication


def communication(episodes: Sequence[RecordedEpisode]) -> Table:
    """Section 7.2: how much each role talks."""
    rows = []
    for (pairing, mode), group in _group(episodes, lambda e: (e.pairing, e.mode)).items():
        for role in ROLES:
            per_turn, per_minute, words = [], [], []
            sent = turns = 0
            for e in group:
                mine = [t for t in e.turns if t.role == role]
                if not mine:
                    continue
                messages = [t.action.message or "" for t in mine if t.action.kind == "send_message"]
                sent += len(messages)
                turns += len(mine)
                per_turn.append(len(messages) / len(mine))
                minutes = _minutes(e)
                if minutes:
                    per_minute.append(len(messages) / minutes)
                words += [float(len(m.split())) for m in messages]
            if turns:
                rows.append((pairing, mode, role, mean(per_turn), mean(per_minute), mean(words, 1),
                             Rate(sent, turns)))  # fmt: skip
    return Table(
        "communication", "Messages per turn and per game minute", "Section 7.2",
        ("pairing", "mode", "role", "messages per turn", "messages per game minute",
         "words per message", "turns that message"),
        tuple(rows),
        "Means over episodes (words: over messages), 95 % bootstrap intervals.",
    )  # fmt: skip


def _action_name(kind: str, name: str | None) -> str:
    return name if kind == "interact_game" and name else kind


def actions(episodes: Sequence[RecordedEpisode]) -> Table:
    """The distribution of actions per role and the module in view (do_nothing included)."""
    counts: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
    for e in episodes:
        for t in e.turns:
            where = kind_title(t.focused) if t.focused else "bomb" if t.role == "defuser" else "–"
            counts[(e.pairing, t.role, where)][_action_name(t.action.kind, t.action.name)] += 1
    rows = []
    for (pairing, role, where), counter in sorted(counts.items()):
        n = sum(counter.values())
        for action, k in sorted(counter.items()):
            rows.append((pairing, role, where, action, Rate(k, n)))
    return Table(
        "actions", "Actions per role and module in view", "Section 7.2 (do-nothing rate)",
        ("pairing", "role", "module in view", "action", "share of turns"),
        tuple(rows),
        "Module in view: the module the Defuser was zoomed into ('bomb' when zoomed out; "
        "'–' for the Expert, who sees no bomb).",
    )  # fmt: skip


NAVIGATION = frozenset({"zoom_out", "rotate_left", "rotate_right", "roll_up", "roll_down", "flip"})
"""Interactions that move the view rather than act on a module (paper Table E.17)."""
PHASES = ("early", "middle", "late")
ACTION_CLASSES = ("wait", "message", "navigate", "interact")


def action_class(t: TurnEvent) -> str:
    """The paper's four action types: wait, message, navigate (turn the bomb, zoom out, or pick
    a module on the bomb face), interact (act on the module in view)."""
    a = t.action
    if a.kind == "do_nothing":
        return "wait"
    if a.kind == "send_message":
        return "message"
    if a.name in NAVIGATION or (t.role == "defuser" and t.focused is None):
        return "navigate"
    return "interact"


def action_phases(episodes: Sequence[RecordedEpisode]) -> Table:
    """Figure 7 / Table P.32: the action types per role, player and outcome, in the early,
    middle and late third of each episode's turns."""
    counts: dict[tuple[str, Role, str, str, str], Counter[str]] = defaultdict(Counter)
    for e in episodes:
        if not e.scored:
            continue
        for role in ROLES:
            mine = [t for t in e.turns if t.role == role]
            player = (e.defuser if role == "defuser" else e.expert) + e.condition
            for i, t in enumerate(mine):
                phase = PHASES[min(2, 3 * i // len(mine))]
                counts[(e.mode, role, player, e.outcome, phase)][action_class(t)] += 1
    rows: list[tuple[Cell, ...]] = []
    for (mode, role, player, outcome, phase), counter in sorted(
        counts.items(), key=lambda kv: (*kv[0][:4], PHASES.index(kv[0][4]))
    ):
        n = sum(counter.values())
        rows.append((mode, role, player, outcome, phase,
                     *(Rate(counter[c], n) for c in ACTION_CLASSES)))  # fmt: skip
    return Table(
        "action_phases", "Action types by role, outcome and game phase", "Figure 7, Table P.32",
        ("mode", "role", "player", "outcome", "phase", *ACTION_CLASSES),
        tuple(rows),
        "Phase: the first, middle and last third of the role's turns in each episode. Navigate: "
        "zoom out, rotate, flip, roll, or pick a module on the bomb face; interact: act on the "
        "module in view.",
    )  # fmt: skip


def strike_outcomes(episodes: Sequence[RecordedEpisode]) -> Table:
    """Figure 8: how the episodes that reached k strikes ended."""
    rows = []
    for (pairing, mode), group in _group(episodes, lambda e: (e.pairing, e.mode)).items():
        struck = [(e, e.summary.strikes) for e in group if e.scored and e.summary]
        for k in range(max([s for _, s in struck] + [0]) + 1):
            reached = [e for e, s in struck if s >= k]
            n = len(reached)
            count = Counter(e.outcome for e in reached)
            rows.append((pairing, mode, k, Rate(count["solved"], n), Rate(count["timeout"], n),
                         Rate(count["strikeout"], n)))  # fmt: skip
    return Table(
        "strike_outcomes", "Outcomes after reaching k strikes", "Figure 8",
        ("pairing", "mode", "strikes reached", "solved", "timeout", "strikeout"),
        tuple(rows),
    )  # fmt: skip


def _setting(e: RecordedEpisode) -> str:
    """``pair`` (with any partner), ``solo`` or ``solo-no-manual`` (paper §10.2)."""
    d = e.player("defuser")
    return d.seat if d is not None and d.seat in ("solo", "solo-no-manual") else "pair"


def _solo_key(e: RecordedEpisode) -> tuple[str, str, str]:
    """(the Defuser's policy and the episode's condition, mode, setting)."""
    d = e.player("defuser")
    return f"{d.policy if d is not None else '?'}{e.condition}", e.mode, _setting(e)


def solo(episodes: Sequence[RecordedEpisode]) -> Table:
    """Table 11: single-module success of each Defuser in pairs (any partner) against the same
    model alone, with and without the manual."""
    single = [e for e in episodes if _single(e)]
    rows = []
    for (player, mode, setting), group in _group(single, _solo_key).items():
        rows.append((player, mode, setting, len({e.expert for e in group}), _solved(group),
                     _not_scored(group)))  # fmt: skip
    return Table(
        "solo", "Pairs against a single agent, with and without the manual", "Table 11",
        ("defuser", "mode", "setting", "partners", "single-module missions solved",
         "not scored"),
        tuple(rows),
        "pair: with any Expert; solo: one model holds bomb and manual; solo-no-manual: the bomb "
        "alone (parametric knowledge).",
    )  # fmt: skip


def self_other(episodes: Sequence[RecordedEpisode]) -> Table:
    """Table 7: communication rate (share of turns with a message) in self-play (the same
    player in both roles) and other-play, per role."""
    counts: dict[tuple[str, str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for e in episodes:
        d, x = e.player("defuser"), e.player("expert")
        if d is None or x is None:
            continue  # solo: nobody to talk to
        play = "self" if d.policy == x.policy else "other"
        for t in e.turns:
            player = d if t.role == "defuser" else x
            cell = counts[(e.mode, player.policy + e.condition, t.role, play)]
            cell[0] += t.action.kind == "send_message"
            cell[1] += 1
    rows = [(mode, player, role, play, Rate(k, n))
            for (mode, player, role, play), (k, n) in sorted(counts.items())]  # fmt: skip
    return Table(
        "self_other", "Communication in self-play and other-play", "Table 7",
        ("mode", "player", "role", "play", "turns that message"),
        tuple(rows),
        "Self-play: the same policy or model in both roles.",
    )  # fmt: skip


def strike_times(e: RecordedEpisode) -> list[float]:
    """Game seconds elapsed at each new strike, from the strikes the records observed."""
    if e.summary is None or e.summary.time_limit is None:  # no summary, or no clock (SANZARU)
        return []
    limit = e.summary.time_limit
    observed: list[TurnEvent | GameStep] = [*e.turns, *e.steps]
    points = sorted(
        (limit - x.seconds_remaining, x.strikes)
        for x in observed
        if x.strikes is not None and x.seconds_remaining is not None
    )
    times, seen = [], 0
    for elapsed, strikes in points:
        while strikes > seen:
            times.append(elapsed)
            seen += 1
    if e.summary.strikes > seen and e.summary.game_time_used is not None:
        times += [e.summary.game_time_used] * (e.summary.strikes - seen)  # the final strike
    return times


def strikes(episodes: Sequence[RecordedEpisode]) -> Table:
    rows = []
    for (pairing, mode), group in _group(episodes, lambda e: (e.pairing, e.mode)).items():
        scored = [e for e in group if e.scored]
        times = [strike_times(e) for e in scored]
        firsts = [t[0] for t in times if t]
        per_minute = [len(t) / m for t, e in zip(times, scored, strict=True) if (m := _minutes(e))]
        rows.append((pairing, mode, Rate(len(firsts), len(scored)),
                     mean([float(e.summary.strikes) for e in scored if e.summary]),
                     mean(firsts, 1), mean(per_minute)))  # fmt: skip
    return Table(
        "strikes", "Strikes and when they happen", "Section 7.2 (strike timelines)",
        ("pairing", "mode", "episodes with a strike", "strikes per episode",
         "game seconds to the first strike", "strikes per game minute"),
        tuple(rows),
        "The strike timeline plot shows the cumulative strikes over game time.",
    )  # fmt: skip


# ---------------------------------------------------------------------------- model behaviour


def localisation(episodes: Sequence[RecordedEpisode]) -> Table:
    """Section 8 / Table 9 in play: interactions naming a location not on screen; parser
    repairs and skipped turns, for model players."""
    rows = []
    for (pairing, mode), group in _group(episodes, lambda e: (e.pairing, e.mode)).items():
        for role in ROLES:
            if not any((p := e.player(role)) and p.kind == "model" for e in group):
                continue
            turns = [t for e in group for t in e.turns if t.role == role]
            lost = [t for t in turns if any(x.startswith(LOCALISATION_CODES) for x in t.errors)]
            attempts = sum(t.action.kind == "interact_game" for t in turns) + sum(
                t.action.kind != "interact_game" for t in lost
            )
            rows.append((pairing, mode, role, Rate(len(lost), attempts),
                         Rate(sum(bool(t.warnings) for t in turns), len(turns)),
                         Rate(sum(bool(t.errors) for t in turns), len(turns))))  # fmt: skip
    return Table(
        "localisation", "Locations not on screen, parser repairs, skipped turns",
        "Section 8.1, Table 9 (in play)",
        ("pairing", "mode", "role", "interactions naming a location not on screen",
         "turns repaired by the parser", "turns skipped"),
        tuple(rows),
        "Model players only. Repaired: the parser salvaged the output and warned; skipped: "
        "nothing valid was left and the turn did nothing (the model was told next turn).",
    )  # fmt: skip


def tokens(episodes: Sequence[RecordedEpisode]) -> Table:
    rows = []
    for (pairing, mode), group in _group(episodes, lambda e: (e.pairing, e.mode)).items():
        for role in ROLES:
            turns = [t for e in group for t in e.turns if t.role == role]
            if not turns:
                continue
            calls = [t for t in turns if t.tokens.input or t.tokens.output]
            hit = [t.tokens.cache_read / t.tokens.input for t in calls if t.tokens.input]
            rows.append((pairing, mode, role, len(calls),
                         sum(t.tokens.input for t in turns), sum(t.tokens.output for t in turns),
                         sum(t.tokens.cache_read for t in turns),
                         sum(t.tokens.cache_write for t in turns), mean(hit, 3),
                         mean([t.latency_s for t in turns], 3),
                         _usd_cell(add_costs(t.cost_usd for t in turns))))  # fmt: skip
    return Table(
        "tokens", "Tokens, cache, latency and cost per role", "Section 8.3, Appendix H",
        ("pairing", "mode", "role", "model calls", "input tokens", "output tokens",
         "cache read", "cache write", "cache hit rate per call", "latency per turn (s)",
         "cost (USD)"),
        tuple(rows),
        "Scripted players make no model calls: zero tokens and cost. Latency: wall seconds "
        "the policy took per turn. Cost 'unknown': a model without a price in "
        "configs/prices.yaml (never shown as $0).",
    )  # fmt: skip


def timing(episodes: Sequence[RecordedEpisode]) -> Table:
    """Figure 5: what a turn costs in wall time (the policy's latency) and in game time (the
    bomb clock between consecutive Defuser observations: 3 s per turn in sync, latency plus
    the partner's turns in async)."""
    rows = []
    for (pairing, mode), group in _group(episodes, lambda e: (e.pairing, e.mode)).items():
        clock = []
        for e in group:
            seen = [t.seconds_remaining for t in e.turns
                    if t.role == "defuser" and t.seconds_remaining is not None]  # fmt: skip
            clock += [a - b for a, b in itertools.pairwise(seen)]
        for role in ROLES:
            latency = [t.latency_s for e in group for t in e.turns if t.role == role]
            if latency:
                rows.append((pairing, mode, role, mean(latency, 3),
                             mean(clock if role == "defuser" else [], 2)))  # fmt: skip
    return Table(
        "timing", "Wall time and game time per turn", "Figure 5",
        ("pairing", "mode", "role", "policy latency per turn (wall s)",
         "game seconds between Defuser turns"),
        tuple(rows),
    )  # fmt: skip


@dataclass(frozen=True)
class SeatTime:
    """An episode's seat seconds and how many of them went where (``None``: not recorded)."""

    seat: float
    model: float
    game: float | None
    startup: float | None


def seat_time(e: RecordedEpisode) -> SeatTime:
    """Sync play has one seat acting at a time, so its seat time is the episode's wall time;
    in async play each seat loops for the whole episode, so it is wall time x seats. Game
    calls are ``None`` for records before version 5 (which did not time them); start-up is
    ``None`` when the game never started (no ``start`` step)."""
    assert e.summary is not None
    wall = max(0.0, e.summary.ended_at - e.summary.started_at)
    played = [t for t in e.turns if not t.restored]
    seats = max(1, len({t.role for t in played})) if e.recorded_mode == "async" else 1
    models = {p.role for p in e.players if p.kind == "model"}
    model = sum(t.latency_s for t in played if t.role in models)
    defuser = [t for t in played if t.role == "defuser"]
    timed = [s for s in e.steps if s.what in ("timestep", "advance")]
    game = None
    if all(t.game_s is not None for t in defuser) and all(s.wall_s is not None for s in timed):
        game = sum(t.game_s or 0.0 for t in defuser) + sum(s.wall_s or 0.0 for s in timed)
    start = next((s.at for s in e.steps if s.what == "start"), None)
    startup = None if start is None else seats * max(0.0, start - e.summary.started_at)
    return SeatTime(wall * seats, model, game, startup)


def _share(part: float | None, whole: float) -> float | str:
    if part is None:
        return UNKNOWN
    return round(100 * part / whole, 1) if whole else 0.0


def _total(parts: Sequence[float | None]) -> float | None:
    return None if None in parts else sum(p for p in parts if p is not None)


def wall_time(episodes: Sequence[RecordedEpisode]) -> Table:
    """Where an episode's wall time went: model calls, game calls, the harness's start-up and
    the rest of the harness, from the records alone (turn ``latency_s`` and ``game_s``, game
    step ``wall_s`` and ``at``, the summary's ``started_at``/``ended_at``)."""
    rows: list[tuple] = []
    for (pairing, mode), group in _group(episodes, lambda e: (e.pairing, e.mode)).items():
        timed = [seat_time(e) for e in group if e.summary is not None]
        if not timed:
            continue
        seat = sum(t.seat for t in timed)
        model = sum(t.model for t in timed)
        game, startup = _total([t.game for t in timed]), _total([t.startup for t in timed])
        rest = None if game is None or startup is None else max(0.0, seat - model - game - startup)
        rows.append((pairing, mode, len(timed), round(seat, 3), _share(model, seat),
                     _share(game, seat), _share(startup, seat), _share(rest, seat)))  # fmt: skip
    return Table(
        "wall_time", "Share of wall time in model calls, game calls and the harness",
        "Section 8.3",
        ("pairing", "mode", "episodes", "seat seconds", "model calls (%)", "game calls (%)",
         "harness start-up (%)", "harness, rest (%)"),
        tuple(rows),
        "Seat seconds: the episode's wall time (started_at to ended_at) in sync play, where one "
        "seat acts at a time; wall time x seats in async play, where each seat loops on its "
        "own. Model calls: the latency of model players' turns (a scripted player's decision "
        "is harness time). Game calls: the Defuser's observations and actions, and the "
        "manager's time steps. Start-up: from the episode's start to the game's lights-on. "
        "Rest: everything else (bus, set-of-marks, idle pauses, waiting for the partner, "
        "shutdown). 'unknown': records before version 5, which did not time game calls.",
    )  # fmt: skip


def _ratio(costs: Sequence[float], counts: Sequence[float]) -> Mean:
    """Σ cost / Σ count with a bootstrap interval over episodes (``None`` when nothing
    counted)."""
    n = len(costs)
    total = sum(counts)
    if not n or not total:
        return Mean(None, None, None, n, 4)
    value = sum(costs) / total
    if n < 2:
        return Mean(value, None, None, n, 4)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    idx = rng.integers(0, n, size=(BOOTSTRAP_RESAMPLES, n))
    c, k = np.asarray(costs)[idx].sum(axis=1), np.asarray(counts)[idx].sum(axis=1)
    ok = k > 0
    low, high = np.percentile(c[ok] / k[ok], [2.5, 97.5])
    return Mean(value, float(low), float(high), n, 4)


def _usd_cell(value: float | None) -> float | str:
    return UNKNOWN if value is None else round(value, 6)


def cost(episodes: Sequence[RecordedEpisode]) -> Table:
    rows: list[tuple] = []
    for (pairing, mode), group in _group(episodes, lambda e: (e.pairing, e.mode)).items():
        scored = [e.summary for e in group if e.scored and e.summary]
        known = [s.cost_usd for s in scored if s.cost_usd is not None]
        if len(known) < len(scored):  # a model without a price: the cost is unknown
            rows.append((pairing, mode, len(scored), UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN))
            continue
        modules = [float(s.modules_solved) for s in scored]
        missions = [float(s.outcome == "solved") for s in scored]
        rows.append((pairing, mode, len(scored), round(sum(known), 6), mean(known, 4),
                     _ratio(known, modules), _ratio(known, missions)))  # fmt: skip
    return Table(
        "cost", "Cost per episode, per solved module and per solved mission", "Appendix H",
        ("pairing", "mode", "episodes", "cost (USD)", "cost per episode", "cost per solved module",
         "cost per solved mission"),
        tuple(rows),
        "Ratios of sums over scored episodes with bootstrap intervals; '–' when nothing was "
        "solved; 'unknown' when a model had no price (configs/prices.yaml).",
    )  # fmt: skip


# ---------------------------------------------------------------------------- rule seeds


def rule_seeds(episodes: Sequence[RecordedEpisode]) -> Table:
    """The contamination contrast: per players and mode, the success rate under the v1 rules
    (rule seed 1, on the web for years) minus that under each other rule seed, over the
    (mission, repeat) pairs scored under both, with a paired 95 % bootstrap interval."""
    rows = []
    scored = [e for e in episodes if e.scored]
    by = _group(scored, lambda e: (f"{e.defuser} × {e.expert}", e.mode, e.rule_seed))
    for (players, mode, seed), group in by.items():
        base = {(e.mission_id, e.repeat): e for e in by.get((players, mode, 1), [])}
        if seed == 1 or not base:
            continue
        pairs = [(base[(e.mission_id, e.repeat)], e) for e in group
                 if (e.mission_id, e.repeat) in base]  # fmt: skip
        if not pairs:
            continue
        drop = [float(a.outcome == "solved") - float(b.outcome == "solved") for a, b in pairs]
        rows.append((players, mode, seed, len(pairs),
                     Rate(sum(a.outcome == "solved" for a, _ in pairs), len(pairs)),
                     Rate(sum(b.outcome == "solved" for _, b in pairs), len(pairs)),
                     mean(drop)))  # fmt: skip
    return Table(
        "rule_seeds", "Contamination contrast: v1 rules minus unseen rules", "(rule seeds)",
        ("players", "mode", "rule seed", "pairs", "solved, seed 1", "solved, this seed",
         "drop (paired)"),
        tuple(rows),
        "Pairs: the same mission and repeat under rule seed 1 and under the other seed; a "
        "positive drop means the players did better with the rules on the web.",
    )  # fmt: skip


# ---------------------------------------------------------------------------- replays


def branches(episodes: Sequence[RecordedEpisode]) -> Table:
    """Each counterfactual replay next to its parent: where it forked, what was replaced, and
    how each ended (a branch is never pooled into the other tables' rates: its ``condition``
    names its parent)."""
    dirs = by_dir(episodes)
    rows: list[tuple[Cell, ...]] = []
    for e in sorted(episodes, key=lambda e: (e.run, e.key, e.attempt)):
        link = e.parent
        if link is None:
            continue
        parent = parent_of(e, dirs)
        replaced = f"{link.replaced_role}: {link.message}" if link.message is not None else None
        if parent is None:
            rows.append((e.run, link.episode_id, e.episode_id, link.fork_turn, replaced, "not loaded",
                         e.outcome, None, _modules(e), None, _used(e), None))  # fmt: skip
            continue
        differs = first_difference(parent.turns, e.turns)
        rows.append((e.run, parent.episode_id, e.episode_id, link.fork_turn, replaced, parent.outcome,
                     e.outcome, _modules(parent), _modules(e), _used(parent), _used(e),
                     differs))  # fmt: skip
    return Table(
        "branches", "Counterfactual replays next to their parents", "(gptnt replay)",
        ("run", "parent", "branch", "fork turn", "replaced", "parent outcome", "branch outcome",
         "parent modules", "branch modules", "parent game s", "branch game s",
         "first different turn"),
        tuple(rows),
        "Turns count from 0 over both players in record order. A replay with the same players "
        "and no replacement reproduces its parent: no turn differs.",
    )  # fmt: skip


def _modules(e: RecordedEpisode) -> str | None:
    s = e.summary
    return f"{s.modules_solved}/{len(s.modules)}" if s else None


def _used(e: RecordedEpisode) -> float | None:
    return e.summary.game_time_used if e.summary else None


ANALYSES: tuple[Callable[[Sequence[RecordedEpisode]], Table], ...] = (
    episode_status,
    outcomes,
    module_types,
    failure_split,
    crossplay,
    marginals,
    solo,
    communication,
    self_other,
    actions,
    action_phases,
    strikes,
    strike_outcomes,
    localisation,
    tokens,
    timing,
    wall_time,
    cost,
    rule_seeds,
    branches,
    episode_index,
)
