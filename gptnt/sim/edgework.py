"""Seeded edgework: the serial number and the optional widgets on the four sides of the case.

Distributions follow the KTANE modkit's widget generator, which mirrors the game's:

- serial ``[A][A][D][L][L][D]`` over a 35-character table without O and Y, where E takes O's slot
  (so E is twice as likely as any other letter);
- each optional widget is a battery holder, an indicator or a port plate with equal chance;
- battery holder: one D battery or two AA batteries, 50/50;
- indicator: a label drawn without replacement from the 11 labels (``NLL`` once they run out),
  lit with probability 0.6;
- port plate: group {Parallel, Serial} or group {DVI-D, PS/2, RJ-45, Stereo RCA} 50/50, each port
  of the group present with probability ½ (empty plates happen).

Placement on the edges is our assumption (the game's widget zones are unknown): the long
sides (top, bottom) hold ``EDGE_CAPACITY["top"]`` widgets each, the short sides fewer; every
widget, the serial plate first, goes to a uniformly chosen side that still has room, and takes
the next free spot there (``WidgetSpot.index``; the renderer lays spots out in reading order).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gptnt.protocol import (
    BatteryWidget,
    EdgeSide,
    IndicatorWidget,
    PortType,
    PortWidget,
    SerialNumberWidget,
    Widget,
)

SERIAL_CHARS = "ABCDEFGHIJKLMNEPQRSTUVWXZ0123456789"  # E replaces O; no Y
SERIAL_LETTERS = SERIAL_CHARS[:25]
DIGITS = "0123456789"
INDICATOR_LABELS = ("SND", "CLR", "CAR", "IND", "FRQ", "SIG", "NSA", "MSA", "TRN", "BOB", "FRK")
SPARE_LABEL = "NLL"
INDICATOR_LIT_P = 0.6
PORT_GROUPS: tuple[tuple[PortType, ...], ...] = (
    ("Parallel", "Serial"),
    ("DVI-D", "PS/2", "RJ-45", "Stereo RCA"),
)
EDGES: tuple[EdgeSide, ...] = ("top", "bottom", "left", "right")
# Assumption (the case's spot count is not documented): 3×2 spots on each long side, 2×2 on
# each short side.
EDGE_CAPACITY: dict[EdgeSide, int] = {"top": 6, "bottom": 6, "left": 4, "right": 4}
MAX_OPTIONAL_WIDGETS = sum(EDGE_CAPACITY.values()) - 1


@dataclass(frozen=True)
class WidgetSpot:
    """Where a widget sits: its side and its spot on that side (reading order)."""

    edge: EdgeSide
    index: int


def serial_number(rng: random.Random) -> str:
    """A serial like ``JR2ZR5``: two any-characters, a digit, two letters, a digit."""
    return "".join(
        (
            rng.choice(SERIAL_CHARS),
            rng.choice(SERIAL_CHARS),
            rng.choice(DIGITS),
            rng.choice(SERIAL_LETTERS),
            rng.choice(SERIAL_LETTERS),
            rng.choice(DIGITS),
        )
    )


def generate_widgets(rng: random.Random, optional: int) -> tuple[list[Widget], list[WidgetSpot]]:
    """The serial plate plus ``optional`` widgets, in the order the state lists them.

    Returns the protocol widget models (their ``position`` is the side) and, index for index,
    the spot each occupies on its side.
    """
    if not 0 <= optional <= MAX_OPTIONAL_WIDGETS:
        from gptnt.errors import ConfigError

        raise ConfigError(f"optWidgets={optional}: use 0..{MAX_OPTIONAL_WIDGETS}")
    used: dict[EdgeSide, int] = dict.fromkeys(EDGES, 0)

    def place() -> WidgetSpot:
        edge = rng.choice([e for e in EDGES if used[e] < EDGE_CAPACITY[e]])
        used[edge] += 1
        return WidgetSpot(edge, used[edge] - 1)

    spot = place()
    widgets: list[Widget] = [
        SerialNumberWidget(position=spot.edge, serial_number=serial_number(rng))
    ]
    spots = [spot]
    labels = list(INDICATOR_LABELS)
    for _ in range(optional):
        kind = rng.randrange(3)
        spot = place()
        if kind == 0:
            if rng.random() < 0.5:
                widget: Widget = BatteryWidget(
                    position=spot.edge, battery_type="D", batteries_count=1
                )
            else:
                widget = BatteryWidget(position=spot.edge, battery_type="AA", batteries_count=2)
        elif kind == 1:
            label = labels.pop(rng.randrange(len(labels))) if labels else SPARE_LABEL
            widget = IndicatorWidget(
                position=spot.edge, label=label, light_activated=rng.random() < INDICATOR_LIT_P
            )
        else:
            group = PORT_GROUPS[rng.randrange(2)]
            widget = PortWidget(
                position=spot.edge, port_type=[p for p in group if rng.random() < 0.5]
            )
        widgets.append(widget)
        spots.append(spot)
    return widgets, spots
