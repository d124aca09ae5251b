"""Keypad rules: Appendix C vector, column uniqueness, glyph table, solve/mistakes with progress."""

from __future__ import annotations

import itertools

import pytest

from gptnt.errors import ConfigError
from gptnt.protocol import KEYPAD_SYMBOLS, KeypadKey, KeypadModule
from gptnt.rules._edgework import Edgework
from gptnt.rules._steps import Press
from gptnt.rules.modules.keypad import GLYPHS, V1, column_of, elements, mistakes, press_order, solve

EDGE = Edgework(serial="AB1CD2")


def module(symbols: list[str], green: tuple[int, ...] = ()) -> KeypadModule:
    keys = [
        KeypadKey(symbol=s, color="green" if i in green else None) for i, s in enumerate(symbols)
    ]
    return KeypadModule(
        on_front=True,
        index=0,
        top_left=keys[0],
        top_right=keys[1],
        bottom_left=keys[2],
        bottom_right=keys[3],
    )


def test_appendix_c_real_seed_798() -> None:
    symbols = ["hollow-star", "lambda-bar", "qa", "ha-with-descender"]  # ☆ ƛ Ҩ Ԇ
    assert column_of(symbols, V1) == V1.columns[2]
    assert [symbols[i] for i in press_order(symbols, V1)] == [
        "qa",
        "ha-with-descender",
        "lambda-bar",
        "hollow-star",
    ]
    m = module(symbols)
    assert solve(m, EDGE, V1, strikes=0) == [
        Press("bottom-left"),
        Press("bottom-right"),
        Press("top-right"),
        Press("top-left"),
    ]
    assert elements(m) == ["top-left", "top-right", "bottom-left", "bottom-right"]


def test_green_keys_are_skipped_and_mistakes_are_the_rest_after_the_next() -> None:
    m = module(["hollow-star", "lambda-bar", "qa", "ha-with-descender"], green=(2,))
    assert solve(m, EDGE, V1, strikes=0) == [
        Press("bottom-right"),
        Press("top-right"),
        Press("top-left"),
    ]
    assert mistakes(m, EDGE, V1, strikes=0) == [Press("top-right"), Press("top-left")]


def test_any_four_symbols_of_a_column_identify_it() -> None:
    for column in V1.columns:
        assert len(column) == 7 and len(set(column)) == 7
        for four in itertools.combinations(column, 4):
            assert column_of(four, V1) == column
    assert len({s for c in V1.columns for s in c}) == 27


def test_glyphs_cover_every_protocol_symbol_once() -> None:
    assert set(GLYPHS) == set(KEYPAD_SYMBOLS)
    assert len(set(GLYPHS.values())) == len(GLYPHS)
    assert GLYPHS["archaic-koppa"] == "\u03d8" and GLYPHS["pashto-teh"] == "\u067c"


def test_symbols_from_two_columns_are_refused() -> None:
    with pytest.raises(ConfigError, match="symbols"):
        column_of(["copyright", "omega", "star", "psi"], V1)
