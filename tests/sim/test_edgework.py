"""Edgework generation: formats, capacities, determinism and the reference distributions."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gptnt.protocol import BatteryWidget, IndicatorWidget, PortWidget, SerialNumberWidget
from gptnt.rules import Edgework
from gptnt.sim.edgework import (
    EDGE_CAPACITY,
    INDICATOR_LABELS,
    MAX_OPTIONAL_WIDGETS,
    SERIAL_CHARS,
    generate_widgets,
    serial_number,
)

SERIAL = re.compile(r"^[A-NP-XZ0-9]{2}[0-9][A-NP-XZ]{2}[0-9]$")
N = 20_000


def _within(observed: int, n: int, p: float, sigmas: float = 5.0) -> bool:
    """A binomial count within ``sigmas`` standard deviations of its mean."""
    sd = (n * p * (1 - p)) ** 0.5
    return abs(observed - n * p) <= sigmas * sd


@given(seed=st.integers(0, 2**32), optional=st.integers(0, 10))
@settings(max_examples=100, deadline=None)
def test_widgets_are_valid_and_deterministic(seed: int, optional: int) -> None:
    widgets, spots = generate_widgets(random.Random(seed), optional)
    again, again_spots = generate_widgets(random.Random(seed), optional)
    assert widgets == again and spots == again_spots
    assert len(widgets) == optional + 1
    assert isinstance(widgets[0], SerialNumberWidget) and SERIAL.match(widgets[0].serial_number)
    assert sum(isinstance(w, SerialNumberWidget) for w in widgets) == 1
    labels = [w.label for w in widgets if isinstance(w, IndicatorWidget)]
    assert len(labels) == len(set(labels))
    for widget, spot in zip(widgets, spots, strict=True):
        assert widget.position == spot.edge
    taken = Counter((s.edge, s.index) for s in spots)
    assert max(taken.values()) == 1
    for spot in spots:
        assert 0 <= spot.index < EDGE_CAPACITY[spot.edge]
    assert 0 <= Edgework.from_widgets(widgets).last_digit <= 9  # the rules can read it


def test_too_many_widgets_is_a_clear_error() -> None:
    from gptnt.errors import ConfigError

    with pytest.raises(ConfigError, match="optWidgets"):
        generate_widgets(random.Random(1), MAX_OPTIONAL_WIDGETS + 1)


def test_serial_character_distribution() -> None:
    rng = random.Random(1)
    firsts = Counter(serial_number(rng)[0] for _ in range(N))
    assert "O" not in firsts and "Y" not in firsts
    # E takes O's slot: twice as likely as any other character of the 35-entry table.
    assert _within(firsts["E"], N, 2 / 35)
    assert _within(firsts["A"], N, 1 / 35)
    assert _within(firsts["7"], N, 1 / 35)
    assert len(SERIAL_CHARS) == 35


def test_optional_widget_distributions() -> None:
    rng = random.Random(2)
    kinds: Counter[str] = Counter()
    d_batteries = indicators_lit = indicators = plates = group_a = parallel = empty = 0
    for _ in range(N // 5):
        widgets, _ = generate_widgets(rng, 5)
        for widget in widgets[1:]:
            kinds[widget.name] += 1
            if isinstance(widget, BatteryWidget):
                d_batteries += widget.battery_type == "D"
                assert widget.batteries_count == (1 if widget.battery_type == "D" else 2)
            elif isinstance(widget, IndicatorWidget):
                indicators += 1
                indicators_lit += widget.light_activated
                assert widget.label in INDICATOR_LABELS
            elif isinstance(widget, PortWidget):
                plates += 1
                ports = set(widget.port_type)
                is_a = bool(ports & {"Parallel", "Serial"})
                assert not (is_a and ports & {"DVI-D", "PS/2", "RJ-45", "Stereo RCA"})
                group_a += is_a
                parallel += "Parallel" in ports
                empty += not ports
    total = sum(kinds.values())
    for name in ("Battery", "Indicator", "Port"):
        assert _within(kinds[name], total, 1 / 3), kinds
    assert _within(d_batteries, kinds["Battery"], 0.5)
    assert _within(indicators_lit, indicators, 0.6)
    assert _within(parallel, plates, 0.25)  # group A (½) × present (½)
    assert _within(empty, plates, 5 / 32)  # ½·¼ + ½·1/16
    assert group_a <= plates


def test_every_side_gets_used() -> None:
    rng = random.Random(3)
    edges = Counter(s.edge for _ in range(2000) for s in generate_widgets(rng, 3)[1])
    assert set(edges) == {"top", "bottom", "left", "right"}
    for edge in edges:
        assert _within(edges[edge], sum(edges.values()), 0.25)
