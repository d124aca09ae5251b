"""The paper's results tables in the paper's layout: the same rows, columns, averages and
change markers, every rate with its interval and n.

- Tables 2–3: players × missions (ordered as the catalogue orders them), each cell the outcome
  in words with one bullet per module (● solved, ○ unsolved), and an Overall column;
- Tables 4–5: players × module types, an Avg. column and an Average row; the sync table marks
  each rate's change from the async one (↑ more, ↓ fewer; at least one mission's worth);
- Table 6: Defuser × Expert, both with an Average; ★ after the Defuser and the Expert with the
  highest Average, ``best`` after the highest single pairing's rate (the paper underlines it);
- Table 11: the random baseline on its own row, then Pairwise (over every Expert), No partner
  (solo with the manual) and No manual (solo without it), each with an Average row, marked
  against Pairwise.

Symbols are plain text a sans-serif font has (● ○ ↑ ↓ ★); no emoji. A cell's ``–`` means the
combination was not played. Episodes that crashed, were parked or are incomplete are in no n.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from gptnt.analysis._load import RecordedEpisode
from gptnt.analysis._stats import Rate
from gptnt.analysis._table import Cell, Table
from gptnt.analysis._tables import ANALYSES, OUTCOME_WORDS, _mission_order, _single
from gptnt.protocol import KINDS, kind_title

UP, DOWN = "↑", "↓"
STAR = "★"
"""Table 6: after the Defuser (row) and the Expert (column) with the highest Average."""
BEST = "best"
"""Table 6: the mark of the highest single pairing (the paper underlines it)."""
RANDOM = "random"
"""The policy of the random baseline's Defuser (``gptnt baseline random``, the random pair)."""


def _policy(e: RecordedEpisode, role: str) -> str | None:
    p = e.player(role)
    return p.policy if p is not None else None


def _player(e: RecordedEpisode) -> str:
    """A row of the self-play tables: the pairing, ``policy`` alone when one player held both
    roles (self-play), with the episode's condition."""
    d, x = e.player("defuser"), e.player("expert")
    if d is not None and x is not None and d.policy == x.policy:
        return f"{d.label}, self-play{e.condition}"
    return e.pairing


def _kinds(episodes: Sequence[RecordedEpisode]) -> list[str]:
    """The module kinds of the single-module episodes, in the paper's (the registry's) order."""
    present = {_kind(e) for e in episodes}
    return [k.name for k in KINDS if k.name in present]


def _kind(e: RecordedEpisode) -> str:
    if e.summary is not None and e.summary.modules:
        return e.summary.modules[0].name
    return e.mission_id.rsplit("-", 1)[0]


def _rate(group: Sequence[RecordedEpisode]) -> Rate:
    scored = [e for e in group if e.scored]
    return Rate(sum(e.outcome == "solved" for e in scored), len(scored))


def _mark(rate: Rate, base: Rate | None) -> Rate:
    """``rate`` marked ↑/↓ against ``base`` when they differ by at least one mission at this
    aggregation level (the paper's rule), unmarked otherwise."""
    if base is None or not rate.n or not base.n:
        return rate
    delta = (rate.k / rate.n - base.k / base.n) * rate.n
    if delta >= 1 - 1e-9:
        return Rate(rate.k, rate.n, UP)
    if delta <= -1 + 1e-9:
        return Rate(rate.k, rate.n, DOWN)
    return rate


def _pool(rates: Sequence[Rate]) -> Rate:
    return Rate(sum(r.k for r in rates), sum(r.n for r in rates))


def _modes(episodes: Sequence[RecordedEpisode]) -> list[str]:
    return [m for m in ("async", "sync") if any(e.mode == m for e in episodes)] + sorted(
        {e.mode for e in episodes} - {"async", "sync"}
    )


# ---------------------------------------------------------------------------- Tables 2–3


def _outcome_cell(group: Sequence[RecordedEpisode]) -> str:
    cells = []
    for e in group:
        word = (
            e.status
            if e.status in ("parked", "incomplete")
            else OUTCOME_WORDS.get(e.outcome, "crashed")
        )
        bullets = "".join("●" if m.solved else "○" for m in e.summary.modules) if e.summary else ""
        cells.append(f"{word} {bullets}".strip())
    return "; ".join(cells) if cells else "–"


def mission_grid(episodes: Sequence[RecordedEpisode], mode: str) -> Table:
    multi = [e for e in episodes if e.mode == mode and not _single(e)]
    missions = sorted({e.mission_id for e in multi}, key=_mission_order)
    by: dict[tuple[str, str], list[RecordedEpisode]] = defaultdict(list)
    for e in multi:
        by[(_player(e), e.mission_id)].append(e)
    players = sorted({p for p, _ in by})
    rows = []
    for player in players:
        cells: list[Cell] = [_outcome_cell(by.get((player, m), [])) for m in missions]
        rows.append((player, *cells, _rate([e for m in missions for e in by.get((player, m), [])])))
    number = "2" if mode == "async" else "3" if mode == "sync" else "2–3"
    return Table(
        f"paper_table{number.replace('–', '_')}_{mode}",
        f"Game outcomes and modules solved per mission, {mode}",
        f"Table {number} layout",
        ("player", *(f"mission {m}" for m in missions), "Overall (missions solved)"),
        tuple(rows),
        "Each cell: the outcome (solved, timeout, strikeout; crashed, parked or incomplete are "
        "not the players' and not in n) and one bullet per module in bomb order, ● solved ○ "
        "unsolved; repeats are separated by ';'. Missions in the catalogue's order (increasing "
        "difficulty).",
    )  # fmt: skip


# ---------------------------------------------------------------------------- Tables 4–5


def _single_rates(
    episodes: Sequence[RecordedEpisode], row: Callable[[RecordedEpisode], str | None]
) -> dict[tuple[str, str], Rate]:
    groups: dict[tuple[str, str], list[RecordedEpisode]] = defaultdict(list)
    for e in episodes:
        name = row(e)
        if name is not None:
            groups[(name, _kind(e))].append(e)
    return {key: _rate(group) for key, group in groups.items()}


def _grid_rows(
    rates: dict[tuple[str, str], Rate], kinds: Sequence[str],
    base: dict[tuple[str, str], Rate] | None, average: str = "Average",
) -> list[tuple[Cell, ...]]:  # fmt: skip
    """One row per player: its rate per kind and the Avg. (pooled over kinds: the paper's ten
    missions per kind make the pooled rate the mean of the kinds'); then the Average row."""
    players = sorted({p for p, _ in rates})
    rows: list[tuple[Cell, ...]] = []
    for player in players:
        cells = [rates.get((player, k), Rate(0, 0)) for k in kinds]
        avg = _pool(cells)
        if base is not None:
            cells = [_mark(c, base.get((player, k))) for c, k in zip(cells, kinds, strict=True)]
            avg = _mark(avg, _pool([base[(player, k)] for k in kinds if (player, k) in base]))
        rows.append((player, *cells, avg))
    if players:
        columns = [_pool([rates.get((p, k), Rate(0, 0)) for p in players]) for k in kinds]
        rows.append((average, *columns, _pool(columns)))
    return rows


def module_grid(episodes: Sequence[RecordedEpisode], mode: str) -> Table:
    single = [e for e in episodes if _single(e)]
    selfplay = [e for e in single if e.player("expert") is not None
                and _policy(e, "defuser") == _policy(e, "expert")]  # fmt: skip
    kinds = _kinds(selfplay)
    this = _single_rates([e for e in selfplay if e.mode == mode], _player)
    base = (
        _single_rates([e for e in selfplay if e.mode == "async"], _player)
        if mode == "sync"
        else None
    )
    number = "4" if mode == "async" else "5" if mode == "sync" else "4–5"
    note = ("Self-play (one model in both roles) on single-module missions; Avg.: over the "
            "module types; Average: over the players.")  # fmt: skip
    if base:
        note += f" {UP}/{DOWN}: more/fewer solved than in async play (Table 4), by at least one mission."
    return Table(
        f"paper_table{number.replace('–', '_')}_{mode}",
        f"Single-module success per module type, self-play, {mode}",
        f"Table {number} layout",
        ("player", *(kind_title(k) for k in kinds), "Avg."),
        tuple(_grid_rows(this, kinds, base)) if kinds else (),
        note, marked=base is not None,
    )  # fmt: skip


# ---------------------------------------------------------------------------- Table 6


def _top(rates: Sequence[Rate]) -> set[int]:
    """The indices of the highest played rates (every tie), none when fewer than two played."""
    played = [(r.k / r.n, i) for i, r in enumerate(rates) if r.n]
    if len(played) < 2:
        return set()
    best = max(v for v, _ in played)
    return {i for v, i in played if v == best}


def pairing_grid(episodes: Sequence[RecordedEpisode], mode: str) -> Table:
    single = [e for e in episodes if _single(e) and e.mode == mode and e.player("expert")]
    by: dict[tuple[str, str], list[RecordedEpisode]] = defaultdict(list)
    for e in single:
        by[(e.defuser + e.condition, e.expert)].append(e)
    defusers = sorted({d for d, _ in by})
    experts = sorted({x for _, x in by})
    grid = [[_rate(by.get((d, x), [])) for x in experts] for d in defusers]
    row_avg = [_rate([e for x in experts for e in by.get((d, x), [])]) for d in defusers]
    col_avg = [_rate([e for d in defusers for e in by.get((d, x), [])]) for x in experts]
    star_d, star_x = _top(row_avg), _top(col_avg)
    flat = [c for row in grid for c in row]
    best = {divmod(i, len(experts)) for i in _top(flat)}
    names = [f"{d} {STAR}" if i in star_d else d for i, d in enumerate(defusers)]
    rows: list[tuple[Cell, ...]] = []
    for i, name in enumerate(names):
        cells = [Rate(c.k, c.n, BEST) if (i, j) in best else c for j, c in enumerate(grid[i])]
        rows.append((name, *cells, row_avg[i]))
    if defusers:
        rows.append(("Average", *col_avg, _rate(single)))
    return Table(
        f"paper_table6_{mode}", f"Success of every Defuser × Expert pairing, single-module, {mode}",
        "Table 6 layout",
        ("Defuser \\ Expert", *(f"{x} {STAR}" if j in star_x else x for j, x in enumerate(experts)),
         "Average"),
        tuple(rows),
        "Rows: the Defuser; columns: the Expert; Average over the row's or column's episodes. "
        f"{STAR}: the highest Average for the role (over all its pairings); {BEST}: the highest "
        "success rate of any single pairing (underlined in the paper).",
    )  # fmt: skip


# ---------------------------------------------------------------------------- Table 11


def _setting(e: RecordedEpisode) -> str:
    d = e.player("defuser")
    seat = d.seat if d is not None else None
    return {"solo": "No partner", "solo-no-manual": "No manual"}.get(seat or "", "Pairwise")


def solo_grid(episodes: Sequence[RecordedEpisode], mode: str) -> Table:
    single = [e for e in episodes if _single(e) and e.mode == mode]
    kinds = _kinds(single)
    baseline = [e for e in single if _policy(e, "defuser") == RANDOM and _setting(e) == "Pairwise"]
    models = [e for e in single if e not in baseline]
    rows: list[tuple[Cell, ...]] = []
    if baseline:
        rates = _single_rates(baseline, lambda e: "Random baseline")
        cells = [rates.get(("Random baseline", k), Rate(0, 0)) for k in kinds]
        rows.append(("", "Random baseline", *cells, _pool(cells)))
    pairwise = _single_rates([e for e in models if _setting(e) == "Pairwise"],
                             lambda e: f"{_policy(e, 'defuser')}{e.condition}")  # fmt: skip
    for setting in ("Pairwise", "No partner", "No manual"):
        rates = pairwise if setting == "Pairwise" else _single_rates(
            [e for e in models if _setting(e) == setting],
            lambda e: f"{_policy(e, 'defuser')}{e.condition}",
        )  # fmt: skip
        base = None if setting == "Pairwise" else pairwise
        rows += [(setting, *row) for row in _grid_rows(rates, kinds, base)]
    return Table(
        f"paper_table11_{mode}", f"Pairs against single agents, with and without the manual, {mode}",
        "Table 11 layout", ("setting", "player", *(kind_title(k) for k in kinds), "Avg."),
        tuple(rows) if kinds else (),
        "Random baseline: the random Defuser's episodes, a row of their own (never in Pairwise). "
        "Pairwise: each Defuser over all its Expert partners; No partner: one model holds bomb "
        f"and manual; No manual: the bomb alone. {UP}/{DOWN}: changed from Pairwise by at least "
        "one mission.", marked=True,
    )  # fmt: skip


def paper_tables(episodes: Sequence[RecordedEpisode]) -> list[Table]:
    """Every paper table whose episodes the runs hold, per mode."""
    out: list[Table] = []
    modes = _modes(episodes)
    for maker in (mission_grid, module_grid, pairing_grid, solo_grid):
        for mode in modes:
            table = maker(episodes, mode)
            if table.rows:
                out.append(table)
    return out


def all_tables(episodes: Sequence[RecordedEpisode]) -> list[Table]:
    """The paper's results tables in its layout, then every analysis."""
    return [*paper_tables(episodes), *(analysis(episodes) for analysis in ANALYSES)]
