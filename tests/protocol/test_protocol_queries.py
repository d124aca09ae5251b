"""Query strings of /action and /startmission, both directions."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gptnt.errors import ConfigError
from gptnt.protocol import MODEL_ACTIONS, ActionKind, GameAction, Lifecycle, MissionConfig

WIRE_VALUES = ["click", "hold", "release", "out", "left", "right", "up", "down", "flip",
               "magic", "lottery"]  # fmt: skip


def test_action_kinds_are_the_wire_values() -> None:
    assert [kind.value for kind in ActionKind] == WIRE_VALUES


@pytest.mark.parametrize("kind", [k for k in ActionKind if not k.needs_point])
def test_pointless_actions_encode_alone(kind: ActionKind) -> None:
    assert GameAction(action=kind).to_query() == {"action": kind.value}
    with pytest.raises(ValueError, match="takes no x_pos"):
        GameAction(action=kind, x_pos=0.5, y_pos=0.5)


@pytest.mark.parametrize("kind", [ActionKind.CLICK, ActionKind.HOLD])
def test_pointed_actions_need_both_coordinates(kind: ActionKind) -> None:
    query = GameAction(action=kind, x_pos=0.25, y_pos=1.0).to_query()
    assert query == {"action": kind.value, "x_pos": "0.25", "y_pos": "1.0"}
    assert urlencode(query) == f"action={kind.value}&x_pos=0.25&y_pos=1.0"
    with pytest.raises(ValueError, match="needs both"):
        GameAction(action=kind, x_pos=0.25)
    with pytest.raises(ValueError):
        GameAction(action=kind, x_pos=1.5, y_pos=0.5)
    with pytest.raises(ValueError):
        GameAction(action=kind, x_pos=0.5, y_pos=-0.01)


def test_tiny_coordinates_have_no_exponent() -> None:
    query = GameAction(action="click", x_pos=1e-5, y_pos=0.0).to_query()
    assert query["x_pos"] == "0.00001" and query["y_pos"] == "0.0"


@given(st.sampled_from(list(ActionKind)), st.floats(0, 1), st.floats(0, 1))
def test_action_query_round_trip(kind: ActionKind, x: float, y: float) -> None:
    action = (
        GameAction(action=kind, x_pos=x, y_pos=y) if kind.needs_point else GameAction(action=kind)
    )
    wire = dict(parse_qsl(urlencode(action.to_query())))
    assert wire["action"] == kind.value
    if kind.needs_point:
        assert (float(wire["x_pos"]), float(wire["y_pos"])) == (x, y)
    else:
        assert set(wire) == {"action"}


def test_model_names_map_to_wire_values() -> None:
    assert {name: kind.value for name, kind in MODEL_ACTIONS.items()} == {
        "click_release": "click", "hold": "hold", "release": "release", "zoom_out": "out",
        "rotate_left": "left", "rotate_right": "right", "roll_up": "up", "roll_down": "down",
        "flip": "flip",
    }  # fmt: skip


def test_bad_actions_are_one_line_config_errors() -> None:
    with pytest.raises(ConfigError, match="/action: action"):
        GameAction.checked("dance")
    with pytest.raises(ConfigError, match="needs both"):
        GameAction.checked("hold", None, 0.3)


def test_lifecycle_tokens() -> None:
    assert [s.value for s in Lifecycle] == [
        "Gameplay", "Setup", "LightsOn", "LightsOff", "Transitioning", "PostGame"
    ]  # fmt: skip
    assert Lifecycle("Gameplay") is Lifecycle.GAMEPLAY and str(Lifecycle.LIGHTS_ON) == "LightsOn"


# --------------------------------------------------------------------------- /startmission

MISSION_3 = MissionConfig(
    seed=851, time_limit=300, components=["Wires", "Keypad", "Simon", "WhosOnFirst"]
)


def test_mission_config_query() -> None:
    assert MISSION_3.to_query() == {
        "seed": "851",
        "timeLimit": "300",
        "numStrikes": "3",
        "needyTime": "60",
        "isFront": "false",
        "optWidgets": "5",
        "components": "Wires,Keypad,Simon,WhosOnFirst",
        "timeScale": "1.0",
        "timeStepSize": "3000",
    }
    tagged = MISSION_3.model_copy(update={"session_id": "abc", "is_front": True})
    query = tagged.to_query()
    assert query["sessionId"] == "abc" and query["isFront"] == "true"
    assert "components=Wires%2CKeypad%2CSimon%2CWhosOnFirst" in urlencode(query)


# fixed_dictionaries, not builds(MissionConfig): builds() would also fill the camelCase
# signature names and pydantic would then see every field twice.
configs = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 10**6),
        "time_limit": st.integers(60, 3600),
        "num_strikes": st.integers(1, 5),
        "needy_time": st.integers(1, 60),
        "is_front": st.booleans(),
        "opt_widgets": st.integers(0, 10),
        "components": st.lists(
            st.sampled_from(["Wires", "BigButton", "Maze", "Password", "NeedyKnob"]),
            min_size=1,
            max_size=11,
        ),
        "time_scale": st.floats(0.1, 10),
        "time_step_size": st.integers(1, 9999),
        "session_id": st.none() | st.uuids().map(str),
    }
).map(MissionConfig.model_validate)


@given(configs)
def test_mission_config_round_trip(config: MissionConfig) -> None:
    wire = dict(parse_qsl(urlencode(config.to_query())))
    assert MissionConfig.from_query(wire) == config


def test_mission_config_accepts_both_spellings() -> None:
    camel = MissionConfig.model_validate({"seed": 1, "timeLimit": 90, "components": ["Wires"]})
    snake = MissionConfig.model_validate({"seed": 1, "time_limit": 90, "components": ["Wires"]})
    assert camel == snake


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"timeLimit": None}, "missing query parameter timeLimit"),
        ({"numStrikes": "three"}, "numStrikes='three' is not an integer"),
        ({"isFront": "yes"}, "isFront='yes' must be true or false"),
        ({"timeScale": "fast"}, "timeScale='fast' is not a number"),
        ({"components": "Wires,,Maze"}, "components='Wires,,Maze' must be a comma list"),
        ({"components": "Wires,Bigbutton"}, "components.1"),
        ({"numStrikes": "9"}, "numStrikes: Input should be less than or equal to 5"),
        ({"optWidgets": "11"}, "optWidgets"),
        ({"needyTime": "400"}, "needyTime (400) must not exceed timeLimit (300)"),
        ({"seed": "-1"}, "seed: Input should be greater than or equal to 0"),
    ],
)
def test_from_query_names_the_parameter(change: dict[str, str | None], message: str) -> None:
    query = {**MISSION_3.to_query(), **change}
    query = {k: v for k, v in query.items() if v is not None}
    with pytest.raises(ConfigError) as info:
        MissionConfig.from_query(query)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_too_many_components() -> None:
    with pytest.raises(ValueError, match="at most 11"):
        MissionConfig(seed=1, time_limit=300, components=["Wires"] * 12)


def test_component_names_are_the_module_kinds_plus_needies() -> None:
    from typing import get_args

    from gptnt.protocol import MODULE_KINDS, ComponentName, NeedyKind

    assert get_args(ComponentName) == MODULE_KINDS + get_args(NeedyKind)
