"""Plots as inline SVG text: no plotting library, no script, nothing fetched — the report
page works offline and its plots are as exact as its tables.

Each plot takes the rows it shows (labels and estimates with their intervals) and returns one
``<svg>`` element; colours come from one small palette readable in grey.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from gptnt.analysis._stats import Mean, Rate

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
_FONT = 'font-family="sans-serif" font-size="11"'


def rate_bars(title: str, bars: Sequence[tuple[str, str, Rate]]) -> str:
    """Horizontal bars of rates with 95 % whiskers; ``bars`` are ``(label, series, rate)``
    (one colour per series)."""
    series = list(dict.fromkeys(s for _, s, _ in bars))
    row_h, left, width = 18, 260, 300
    height = 40 + row_h * len(bars) + 16 * len(series)
    out = [_open(left + width + 90, height, title)]
    for i, (label, name, rate) in enumerate(bars):
        y = 30 + i * row_h
        colour = PALETTE[series.index(name) % len(PALETTE)]
        out.append(
            f'<text x="{left - 6}" y="{y + 12}" text-anchor="end" {_FONT}>{escape(label)}</text>'
        )
        if rate.n:
            value = rate.value or 0.0
            low, high = rate.ci or (0.0, 0.0)
            out.append(
                f'<rect x="{left}" y="{y + 2}" width="{value * width:.1f}" height="{row_h - 5}" fill="{colour}"/>'
            )
            out.append(
                f'<line x1="{left + low * width:.1f}" x2="{left + high * width:.1f}" y1="{y + 9}" y2="{y + 9}" stroke="black"/>'
            )
            out.append(
                f'<text x="{left + width + 6}" y="{y + 12}" {_FONT}>{value:.0%} n={rate.n}</text>'
            )
        else:
            out.append(f'<text x="{left + 4}" y="{y + 12}" {_FONT} fill="#888">n=0</text>')
    out.append(_axis(left, width, 30 + row_h * len(bars)))
    out += _legend(series, 40 + row_h * len(bars) + 4)
    out.append("</svg>")
    return "\n".join(out)


def mean_bars(title: str, bars: Sequence[tuple[str, str, Mean]], unit: str) -> str:
    """Horizontal bars of means with their 95 % bootstrap whiskers, on a scale to the largest
    upper bound; ``bars`` are ``(label, series, mean)``."""
    series = list(dict.fromkeys(s for _, s, _ in bars))
    top = max([m.high or m.value or 0.0 for _, _, m in bars] + [1e-9])
    row_h, left, width = 18, 260, 300
    height = 40 + row_h * len(bars) + 16 * len(series)
    out = [_open(left + width + 110, height, title)]
    for i, (label, name, m) in enumerate(bars):
        y = 30 + i * row_h
        colour = PALETTE[series.index(name) % len(PALETTE)]
        out.append(
            f'<text x="{left - 6}" y="{y + 12}" text-anchor="end" {_FONT}>{escape(label)}</text>'
        )
        if m.value is None:
            out.append(f'<text x="{left + 4}" y="{y + 12}" {_FONT} fill="#888">n=0</text>')
            continue
        out.append(
            f'<rect x="{left}" y="{y + 2}" width="{m.value / top * width:.1f}" height="{row_h - 5}" fill="{colour}"/>'
        )
        if m.low is not None and m.high is not None:
            out.append(
                f'<line x1="{left + m.low / top * width:.1f}" x2="{left + m.high / top * width:.1f}" y1="{y + 9}" y2="{y + 9}" stroke="black"/>'
            )
        out.append(
            f'<text x="{left + width + 6}" y="{y + 12}" {_FONT}>{m.value:.{m.digits}f} {escape(unit)} n={m.n}</text>'
        )
    out += _legend(series, 40 + row_h * len(bars) + 4)
    out.append("</svg>")
    return "\n".join(out)


def heatmap(
    title: str, rows: Sequence[str], columns: Sequence[str], cells: Sequence[Sequence[Rate]]
) -> str:
    """A matrix of rates, shaded by value, each cell printed with its n."""
    cell_w, cell_h, left, top = 130, 34, 240, 60
    width = left + cell_w * len(columns) + 10
    height = top + cell_h * len(rows) + 10
    out = [_open(width, height, title)]
    for j, column in enumerate(columns):
        x = left + j * cell_w + cell_w / 2
        out.append(
            f'<text x="{x:.0f}" y="{top - 8}" text-anchor="middle" {_FONT}>{escape(_short(column))}</text>'
        )
    for i, row in enumerate(rows):
        y = top + i * cell_h
        out.append(
            f'<text x="{left - 6}" y="{y + cell_h / 2 + 4:.0f}" text-anchor="end" {_FONT}>{escape(_short(row, 36))}</text>'
        )
        for j, rate in enumerate(cells[i]):
            x = left + j * cell_w
            value = rate.value
            shade = (
                "#eeeeee"
                if value is None
                else f"rgb({int(255 - 200 * value)},{int(255 - 90 * value)},{int(255 - 200 * value)})"
            )
            out.append(
                f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" fill="{shade}"/>'
            )
            label = "–" if value is None else f"{value:.0%}"
            out.append(
                f'<text x="{x + cell_w / 2:.0f}" y="{y + cell_h / 2 + 4:.0f}" text-anchor="middle" {_FONT}>{label} (n={rate.n})</text>'
            )
    out.append("</svg>")
    return "\n".join(out)


def step_lines(
    title: str,
    lines: Sequence[tuple[str, Sequence[tuple[float, float]]]],
    x_label: str,
    y_label: str,
) -> str:
    """Step functions (``(x, y)`` points, sorted), e.g. cumulative strikes over game time."""
    left, top, width, height = 60, 30, 420, 180
    xs = [x for _, pts in lines for x, _ in pts] or [1.0]
    ys = [y for _, pts in lines for _, y in pts] or [1.0]
    x_max, y_max = max(max(xs), 1.0), max(max(ys), 1.0)
    names = [name for name, _ in lines]
    out = [_open(left + width + 20, top + height + 50 + 16 * len(names), title)]
    out.append(
        f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="none" stroke="#999"/>'
    )
    for i, (_, points) in enumerate(lines):
        colour = PALETTE[i % len(PALETTE)]
        path, last_y = [f"M{left},{top + height}"], 0.0
        for x, y in points:
            px = left + x / x_max * width
            path.append(f"L{px:.1f},{top + height - last_y / y_max * height:.1f}")
            path.append(f"L{px:.1f},{top + height - y / y_max * height:.1f}")
            last_y = y
        path.append(f"L{left + width},{top + height - last_y / y_max * height:.1f}")
        out.append(f'<path d="{" ".join(path)}" fill="none" stroke="{colour}" stroke-width="2"/>')
    out.append(
        f'<text x="{left + width / 2}" y="{top + height + 28}" text-anchor="middle" {_FONT}>{escape(x_label)} (0–{x_max:.0f})</text>'
    )
    out.append(
        f'<text x="12" y="{top + height / 2}" {_FONT} transform="rotate(-90 12 {top + height / 2})" text-anchor="middle">{escape(y_label)} (0–{y_max:.2g})</text>'
    )
    out += _legend(names, top + height + 40)
    out.append("</svg>")
    return "\n".join(out)


def _open(width: float, height: float, title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
            f'<text x="4" y="16" font-family="sans-serif" font-size="13" font-weight="bold">{escape(title)}</text>')  # fmt: skip


def _axis(left: float, width: float, y: float) -> str:
    ticks = "".join(
        f'<line x1="{left + f * width}" x2="{left + f * width}" y1="{y}" y2="{y + 4}" stroke="black"/>'
        f'<text x="{left + f * width}" y="{y + 14}" text-anchor="middle" {_FONT}>{f:.0%}</text>'
        for f in (0, 0.25, 0.5, 0.75, 1)
    )
    return f'<line x1="{left}" x2="{left + width}" y1="{y}" y2="{y}" stroke="black"/>{ticks}'


def _legend(names: Sequence[str], y: float) -> list[str]:
    return [
        f'<rect x="10" y="{y + 16 * i}" width="10" height="10" fill="{PALETTE[i % len(PALETTE)]}"/>'
        f'<text x="26" y="{y + 16 * i + 9}" {_FONT}>{escape(name)}</text>'
        for i, name in enumerate(names)
    ]


def _short(text: str, limit: int = 22) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
