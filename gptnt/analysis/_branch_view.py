"""A counterfactual replay side by side with its parent, from the fork on: one static page.

Two columns, one row per turn in record order from the fork turn: the parent's turn on the
left, the branch's on the right, each with its bomb clock, strikes and what it did, and the
turn's messages received, raw output and the game's answer folded under it. A row where the two
differ is marked (the first one is where the branches part); the turns before the fork are the
same in both (the replay checked each) and are only counted. Each column links to its
episode's own viewer page.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from gptnt.analysis._load import RecordedEpisode, same_turn
from gptnt.analysis._viewer import action_text, clock
from gptnt.records import TurnEvent

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 1em; }}
table {{ border-collapse: collapse; width: 100%; table-layout: fixed; }}
th, td {{ border: 1px solid #ccc; padding: 4px 6px; vertical-align: top; font-size: 13px; }}
tr.differs td.side {{ background: #fff4d6; }}
tr.first td.side {{ background: #ffe0a0; }}
td.n {{ width: 3em; color: #666; }}
td.expert {{ background: #f4f8ff; }}
pre {{ white-space: pre-wrap; background: #f6f6f6; padding: 0.4em; margin: 0.3em 0; }}
.gone {{ color: #999; }}
</style></head>
<body>
<h1>{title}</h1>
<p>{about}</p>
<p><a href="{report}">← report</a></p>
<table id="branches" data-fork="{fork}">
<thead><tr><th class="n">turn</th><th><a class="parent" href="{parent_href}">parent {parent}</a>
: {parent_outcome}</th><th><a class="branch" href="{branch_href}">branch {branch}</a>
: {branch_outcome}</th></tr></thead>
<tbody>{rows}</tbody>
</table>
</body></html>
"""


def _cell(t: TurnEvent | None) -> str:
    if t is None:
        return '<td class="side gone">(the episode had ended)</td>'
    head = (
        f"{t.role[0].upper()}{t.turn} {clock(t.seconds_remaining)} "
        f"✗{t.strikes if t.strikes is not None else '–'} {action_text(t)}"
    )
    received = "\n---\n".join(t.received) if t.received else "(none)"
    result = t.result if t.result is not None else "(no game interaction)"
    return (
        f'<td class="side {t.role}"><details><summary>{escape(head)}</summary>'
        f"<pre>received: {escape(received)}</pre><pre>{escape(t.raw_output or '(empty)')}</pre>"
        f"<pre>result: {escape(result)}</pre></details></td>"
    )


def write_branch_page(
    parent: RecordedEpisode, branch: RecordedEpisode, page: Path, *, report: str,
    parent_href: str, branch_href: str,
) -> None:  # fmt: skip
    """Write the side-by-side page of ``branch`` and its ``parent`` at ``page``."""
    link = branch.parent
    assert link is not None, "a branch names its parent"
    fork = link.fork_turn
    mine, theirs = list(branch.turns), list(parent.turns)
    rows, first = [], True
    for n in range(fork, max(len(mine), len(theirs))):
        a = theirs[n] if n < len(theirs) else None
        b = mine[n] if n < len(mine) else None
        classes = ""
        if not same_turn(a, b):
            classes = "differs first" if first else "differs"
            first = False
        rows.append(f'<tr class="{classes}" data-turn="{n}"><td class="n">{n}</td>'
                    f"{_cell(a)}{_cell(b)}</tr>")  # fmt: skip
    replaced = (
        f"; turn {fork}'s output replaced by the {link.replaced_role}'s message “{link.message}”"
        if link.message is not None
        else "; nothing replaced"
    )
    about = (
        f"Mission {parent.mission_id}, {parent.mode}. Turns 0–{fork - 1} are the parent's, "
        f"restored and checked ({fork} turns){replaced}."
        if fork
        else f"Mission {parent.mission_id}, {parent.mode}. Played anew from the start{replaced}."
    )
    page.write_text(
        _PAGE.format(
            title=escape(f"{branch.episode_id} beside its parent, from turn {fork}"),
            about=escape(about), report=escape(report), fork=fork,
            parent=escape(parent.episode_id), branch=escape(branch.episode_id),
            parent_href=escape(parent_href), branch_href=escape(branch_href),
            parent_outcome=escape(parent.outcome), branch_outcome=escape(branch.outcome),
            rows="".join(rows),
        ),
        encoding="utf-8",
    )  # fmt: skip
