"""Writing the report: Markdown, one CSV per table, one self-contained HTML page (inline CSS
and SVG plots, nothing fetched), and the episode viewer pages it links to.

::

    OUT/report.md             every table, Markdown
    OUT/report.html           every table and plot, one page that works offline
    OUT/tables/<table>.csv    one CSV per table; an estimate spreads over value, k, n, CI columns
    OUT/episodes/<run>/<episode>.html   the viewer page of each episode (+ its images folder)
    OUT/episodes/<run>/<episode>.fork.html   a replay's branch beside its parent, from the fork
"""

from __future__ import annotations

import csv
import io
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

from gptnt.analysis import _plots
from gptnt.analysis._branch_view import write_branch_page
from gptnt.analysis._load import RecordedEpisode, Run, by_dir, parent_of
from gptnt.analysis._paper import all_tables
from gptnt.analysis._stats import Mean, Rate
from gptnt.analysis._table import Table, csv_header, csv_rows, text
from gptnt.analysis._tables import strike_times
from gptnt.analysis._viewer import write_episode_page
from gptnt.protocol import kind_title
from gptnt.records import write_atomic

REPORT_MD = "report.md"
REPORT_HTML = "report.html"
TABLES = "tables"
EPISODE_PAGES = "episodes"

_CSS = """
body { font-family: sans-serif; margin: 1em 2em; max-width: 110em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
tr.crashed td, tr.parked td, tr.incomplete td { background: #fff0f0; }
.source { color: #666; font-size: 13px; } .note { color: #444; font-size: 13px; }
figure { margin: 1em 0; }
"""


@dataclass(frozen=True)
class Written:
    tables: list[Table]
    episode_pages: int


def episode_page(e: RecordedEpisode) -> str:
    """The viewer page of an episode, relative to the report's folder."""
    return f"{EPISODE_PAGES}/{e.run}/{e.episode_id}.html"


def fork_page(e: RecordedEpisode) -> str:
    """The page of a replay's branch beside its parent, relative to the report's folder."""
    return f"{EPISODE_PAGES}/{e.run}/{e.episode_id}.fork.html"


def write_report(runs: Sequence[Run], out: Path, *, viewer: bool = True) -> Written:
    """Write every output under ``out`` (created; a previous report there is replaced)."""
    episodes = [e for r in runs for e in r.episodes]
    tables = all_tables(episodes)
    _write_csvs(tables, out)
    pages = 0
    if viewer:
        if (out / EPISODE_PAGES).exists():
            shutil.rmtree(out / EPISODE_PAGES)
        dirs = by_dir(episodes)
        for e in episodes:
            page = out / episode_page(e)
            page.parent.mkdir(parents=True, exist_ok=True)
            parent = parent_of(e, dirs)
            fork = Path(fork_page(e)).name if parent is not None else None
            write_episode_page(e, page, "../../" + REPORT_HTML, fork_href=fork)
            if parent is not None:
                write_branch_page(
                    parent, e, out / fork_page(e), report="../../" + REPORT_HTML,
                    parent_href=f"../{parent.run}/{parent.episode_id}.html",
                    branch_href=f"{e.episode_id}.html",
                )  # fmt: skip
            pages += 1
    write_atomic(out / REPORT_MD, to_markdown(runs, tables, viewer=viewer).encode())
    write_atomic(out / REPORT_HTML, to_html(runs, tables, episodes, viewer=viewer).encode())
    return Written(tables, pages)


def write_tables(tables: Sequence[Table], out: Path, *, title: str, intro: Sequence[str] = (),
                 figures: Mapping[str, str] | None = None) -> None:  # fmt: skip
    """Write tables that are not the KTANE report's — the diagnostics', SANZARU's — the way
    the report writes its own: ``OUT/report.md``, ``OUT/report.html`` (one offline page; each
    SVG of ``figures`` follows the table of its key) and ``OUT/tables/<key>.csv``; ``intro`` is
    a few plain lines under the title."""
    _write_csvs(tables, out)
    write_atomic(
        out / REPORT_MD, _markdown(title, [*intro, _LEGEND], tables, viewer=False).encode()
    )
    head = "".join(f"<p>{escape(line)}</p>" for line in intro) + f"<p>{escape(_LEGEND)}</p>"
    page = _html(title, head, tables, figures or {}, viewer=False)
    write_atomic(out / REPORT_HTML, page.encode())


def _write_csvs(tables: Sequence[Table], out: Path) -> None:
    """One CSV per table under ``OUT/tables`` (created; a previous set there is replaced)."""
    out.mkdir(parents=True, exist_ok=True)
    folder = out / TABLES
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    for table in tables:
        write_atomic(folder / f"{table.key}.csv", to_csv(table).encode())


def to_csv(table: Table) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(csv_header(table))
    writer.writerows(csv_rows(table))
    return buffer.getvalue()


def run_line(run: Run) -> str:
    """One run: its episodes, the record versions and the harnesses that wrote them."""
    versions = sorted({e.schema_version for e in run.episodes})
    harnesses = sorted({
        f"{h.version} @ {h.commit[:10] if h.commit else 'no commit'}{' (dirty)' if h.dirty else ''}"
        for e in run.episodes if (h := e.harness)
    })  # fmt: skip
    schema = ", ".join(f"v{v}" for v in versions) or "–"
    suite = f"; suite {run.info.suite}" if run.info and run.info.suite else ""
    capped = f". {run.capped}" if run.capped else ""
    return (f"{run.name}: {len(run.episodes)} episodes{suite}; record schema {schema}; harness "
            f"{', '.join(harnesses) or 'not recorded (schema v1)'}{capped}")  # fmt: skip


def _title(runs: Sequence[Run]) -> str:
    return "gptnt report — " + ", ".join(r.name for r in runs)


def _md_cell(cell: str) -> str:
    return cell.replace("|", "\\|").replace("\n", " ")


_LEGEND = (
    "Every rate: value [95 % Wilson interval] (n); every mean: value [95 % bootstrap interval] (n)."
)


def to_markdown(runs: Sequence[Run], tables: Sequence[Table], *, viewer: bool = True) -> str:
    runs_list = "\n".join(f"- {run_line(r)}" for r in runs)
    return _markdown(_title(runs), [runs_list, _LEGEND], tables, viewer=viewer)


def _markdown(title: str, intro: Sequence[str], tables: Sequence[Table], *, viewer: bool) -> str:
    lines = [f"# {title}", ""]
    for line in intro:
        lines += [line, ""]
    for table in tables:
        lines += [f"## {table.title}", "", f"*{table.source}*", ""]
        if table.note:
            lines += [table.note, ""]
        lines.append("| " + " | ".join(_md_cell(c) for c in table.columns) + " |")
        lines.append("|" + "---|" * len(table.columns))
        for row in table.rows:
            cells = [_md_cell(text(c)) for c in row]
            if viewer and table.key == "episode_index":
                cells[1] = f"[{cells[1]}]({EPISODE_PAGES}/{row[0]}/{row[1]}.html)"
            lines.append("| " + " | ".join(cells) + " |")
        if not table.rows:
            lines.append("| " + " | ".join("–" for _ in table.columns) + " |")
        lines.append("")
    return "\n".join(lines)


def _html_table(table: Table, *, viewer: bool) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in table.columns)
    body = []
    for row in table.rows:
        cells = [escape(text(c)) for c in row]
        css = ""
        if table.key == "episode_index":
            css = f' class="{escape(str(row[6]))}"'
            if viewer:
                href = escape(f"{EPISODE_PAGES}/{row[0]}/{row[1]}.html")
                cells[1] = f'<a class="episode" href="{href}">{cells[1]}</a>'
        if table.key == "branches" and viewer and row[5] != "not loaded":
            href = escape(f"{EPISODE_PAGES}/{row[0]}/{row[2]}.fork.html")
            cells[2] = f'<a class="fork" href="{href}">{cells[2]}</a>'
        body.append(f"<tr{css}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    if not table.rows:
        body.append(f'<tr><td colspan="{len(table.columns)}">no rows</td></tr>')
    note = f'<p class="note">{escape(table.note)}</p>' if table.note else ""
    return (f'<section id="{table.key}"><h2>{escape(table.title)}</h2>'
            f'<p class="source">{escape(table.source)}</p>{note}'
            f'<table data-table="{table.key}"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></section>')  # fmt: skip


def plots(tables: Sequence[Table], episodes: Sequence[RecordedEpisode]) -> dict[str, str]:
    """SVG figures, keyed by the table they follow."""
    by_key = {t.key: t for t in tables}
    figures: dict[str, str] = {}
    module_rows = by_key["module_types"].rows
    bars = [
        (f"{kind_title(str(r[2]))} · {r[0]} ({r[1]})", str(r[0]), r[3])
        for r in module_rows
        if isinstance(r[3], Rate) and r[3].n
    ]
    if bars:
        figures["module_types"] = _plots.rate_bars("Single-module success by module type", bars)
    for table in tables:
        if not table.key.startswith("paper_"):
            continue
        if table.key.startswith("paper_table6"):
            body = [r for r in table.rows if r[0] != "Average"]
            figures[table.key] = _plots.heatmap(table.title, [str(r[0]) for r in body],
                                                list(table.columns[1:-1]),
                                                [[c for c in r[1:-1] if isinstance(c, Rate)] for r in body])  # fmt: skip
            continue
        first = 2 if table.columns[0] == "setting" else 1
        bars = [(f"{column} · {' '.join(str(c) for c in r[:first] if c)}",
                 " ".join(str(c) for c in r[:first] if c), cell)
                for r in table.rows for column, cell in zip(table.columns[first:], r[first:], strict=True)
                if isinstance(cell, Rate) and cell.n and column != table.columns[-1]
                and r[first - 1] != "Average"]  # fmt: skip
        if bars and not table.key.startswith(("paper_table2", "paper_table3")):
            figures[table.key] = _plots.rate_bars(table.title, bars)
    cross = by_key["crossplay"]
    if cross.rows:
        rows = [f"{r[0]} ({r[1]})" for r in cross.rows]
        cells = [[c for c in r[2:] if isinstance(c, Rate)] for r in cross.rows]
        figures["crossplay"] = _plots.heatmap("Defuser × Expert success", rows,
                                              [c.removeprefix("expert: ") for c in cross.columns[2:]], cells)  # fmt: skip
    lines = []
    groups: dict[tuple[str, str], list[RecordedEpisode]] = {}
    for e in episodes:
        if e.scored:
            groups.setdefault((e.pairing, e.mode), []).append(e)
    for (pairing, mode), group in sorted(groups.items()):
        times = sorted(t for e in group for t in strike_times(e))
        if times:
            points = [(t, (i + 1) / len(group)) for i, t in enumerate(times)]
            lines.append((f"{pairing} ({mode})", points))
    if lines:
        figures["strikes"] = _plots.step_lines("Strike timeline: cumulative strikes per episode", lines,
                                              "game seconds elapsed", "strikes per episode")  # fmt: skip
    outcomes_after = [(f"{r[0]} ({r[1]}) ≥{r[2]} strikes", f"{r[0]} ({r[1]})", r[3])
                      for r in by_key["strike_outcomes"].rows if isinstance(r[3], Rate) and r[3].n]  # fmt: skip
    if outcomes_after:
        figures["strike_outcomes"] = _plots.rate_bars(
            "Figure 8: solved after reaching k strikes", outcomes_after
        )
    latency = [(f"{r[0]} ({r[1]}) {r[2]}", str(r[2]), r[3])
               for r in by_key["timing"].rows if isinstance(r[3], Mean)]  # fmt: skip
    if latency:
        figures["timing"] = _plots.mean_bars("Figure 5: policy latency per turn", latency, "s")
    phases = [(f"{r[1]} {r[2]} {r[3]} · {r[4]} ({r[0]})", f"{r[1]} {r[2]}", r[8])
              for r in by_key["action_phases"].rows if isinstance(r[8], Rate) and r[8].n]  # fmt: skip
    if phases:
        figures["action_phases"] = _plots.rate_bars(
            "Figure 7: share of turns that interact, by phase", phases
        )
    comm = by_key["communication"].rows
    bars = [(f"{r[0]} ({r[1]}) {r[2]}", str(r[2]), r[6]) for r in comm if isinstance(r[6], Rate)]
    if bars:
        figures["communication"] = _plots.rate_bars("Share of turns that send a message", bars)
    return figures


def to_html(runs: Sequence[Run], tables: Sequence[Table], episodes: Sequence[RecordedEpisode], *,
            viewer: bool = True) -> str:  # fmt: skip
    runs_list = "".join(f"<li>{escape(run_line(r))}</li>" for r in runs)
    head = (f"<ul>{runs_list}</ul><p>{escape(_LEGEND)} Crashed, parked and incomplete episodes "
            "are listed, and counted apart from the n of a rate.</p>")  # fmt: skip
    return _html(_title(runs), head, tables, plots(tables, episodes), viewer=viewer)


def _html(title: str, head: str, tables: Sequence[Table], figures: Mapping[str, str], *,
          viewer: bool) -> str:  # fmt: skip
    """One page: the title, ``head`` (HTML), a contents list, each table and its figure."""
    toc = "".join(f'<li><a href="#{t.key}">{escape(t.title)}</a> <span class="source">'
                  f"{escape(t.source)}</span></li>" for t in tables)  # fmt: skip
    sections = []
    for table in tables:
        sections.append(_html_table(table, viewer=viewer))
        if table.key in figures:
            sections.append(f'<figure class="plot">{figures[table.key]}</figure>')
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"<style>{_CSS}</style></head><body><h1>{escape(title)}</h1>{head}"
            f"<nav><ol>{toc}</ol></nav>{''.join(sections)}</body></html>")  # fmt: skip
