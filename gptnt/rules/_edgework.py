"""Edgework as the rules see it: serial number, batteries, indicators, ports, and their queries.

Built from the protocol's widget list, so the same object serves the simulator (which generates
widgets) and the Expert's solver (which reads them from a description). The edgework conditions
that several modules' rules share (Wires and The Button under rule seeds) are data here, each
answering ``holds(edgework)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gptnt.protocol import BatteryWidget, IndicatorWidget, PortWidget, SerialNumberWidget, Widget

VOWELS = frozenset("AEIOU")


@dataclass(frozen=True)
class Indicator:
    label: str
    lit: bool


@dataclass(frozen=True)
class Edgework:
    """What is on the four sides of the case."""

    serial: str
    battery_holders: tuple[int, ...] = ()  # batteries per holder: 1 (D) or 2 (AA)
    indicators: tuple[Indicator, ...] = ()
    port_plates: tuple[tuple[str, ...], ...] = field(default_factory=tuple)

    @classmethod
    def from_widgets(cls, widgets: Sequence[Widget]) -> Edgework:
        serial = next((w.serial_number for w in widgets if isinstance(w, SerialNumberWidget)), "")
        return cls(
            serial=serial,
            battery_holders=tuple(
                w.batteries_count for w in widgets if isinstance(w, BatteryWidget)
            ),
            indicators=tuple(
                Indicator(w.label, w.light_activated)
                for w in widgets
                if isinstance(w, IndicatorWidget)
            ),
            port_plates=tuple(tuple(w.port_type) for w in widgets if isinstance(w, PortWidget)),
        )

    # ---- queries the rules use

    @property
    def batteries(self) -> int:
        return sum(self.battery_holders)

    @property
    def last_digit(self) -> int:
        return int(self.serial[-1])

    @property
    def last_digit_odd(self) -> bool:
        return self.last_digit % 2 == 1

    @property
    def serial_has_vowel(self) -> bool:
        return any(c in VOWELS for c in self.serial)

    def lit(self, label: str) -> bool:
        return any(i.label == label and i.lit for i in self.indicators)

    def has_port(self, port: str) -> bool:
        return any(port in plate for plate in self.port_plates)

    @property
    def serial_starts_with_letter(self) -> bool:
        return self.serial[:1].isalpha()

    @property
    def has_empty_port_plate(self) -> bool:
        return any(not plate for plate in self.port_plates)


# ---------------------------------------------------------------- shared edgework conditions


@dataclass(frozen=True)
class SerialOdd:
    """The last digit of the serial number is odd."""

    def holds(self, edgework: Edgework) -> bool:
        return edgework.last_digit_odd


@dataclass(frozen=True)
class SerialStartsWithLetter:
    """The serial number's first character is a letter."""

    def holds(self, edgework: Edgework) -> bool:
        return edgework.serial_starts_with_letter


@dataclass(frozen=True)
class BatteriesAbove:
    """The bomb has more than ``n`` batteries."""

    n: int

    def holds(self, edgework: Edgework) -> bool:
        return edgework.batteries > self.n


@dataclass(frozen=True)
class LitIndicator:
    """A lit indicator labelled ``label`` is on the bomb."""

    label: str

    def holds(self, edgework: Edgework) -> bool:
        return edgework.lit(self.label)


@dataclass(frozen=True)
class PortPresent:
    """A port of type ``port`` (the protocol's name, e.g. ``Stereo RCA``) is on the bomb."""

    port: str

    def holds(self, edgework: Edgework) -> bool:
        return edgework.has_port(self.port)


@dataclass(frozen=True)
class EmptyPortPlate:
    """A port plate with no port on it is on the bomb."""

    def holds(self, edgework: Edgework) -> bool:
        return edgework.has_empty_port_plate


EdgeworkCondition = (
    SerialOdd
    | SerialStartsWithLetter
    | BatteriesAbove
    | LitIndicator
    | PortPresent
    | EmptyPortPlate
)
