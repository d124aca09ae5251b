"""Action effects (§2.7, §6.3): zoom in and out, rotations, refusals."""

from __future__ import annotations

import httpx
import numpy as np
import pytest

from gptnt.protocol import decode_buffer

from ._backend import assert_refused, start_lit, state


def act(http: httpx.Client, action: str, **point: float) -> httpx.Response:
    params = {"action": action, **{k: str(v) for k, v in point.items()}}
    return http.get("/action", params=params)


def a_module_point(http: httpx.Client) -> tuple[float, float]:
    """Relative centroid of the largest region of the mask (zoomed out: a module)."""
    mask = decode_buffer(http.get("/buffer", params={"last": "1"}).content).mask
    assert mask is not None
    lit = mask.max(axis=2) > 0
    pixels = mask[lit].astype(np.int32)
    low, high = pixels.min(axis=1, keepdims=True), pixels.max(axis=1, keepdims=True)
    stretched = (pixels - low) * 255 // np.maximum(high - low, 1)
    _, inverse, counts = np.unique(stretched, axis=0, return_inverse=True, return_counts=True)
    ys, xs = np.nonzero(lit)
    chosen = inverse.reshape(-1) == int(np.argmax(counts))
    height, width = lit.shape
    return float(xs[chosen].mean() + 0.5) / width, float(ys[chosen].mean() + 0.5) / height


def focused(http: httpx.Client) -> list[str]:
    return [m["name"] for m in state(http)["modules"] if m and m["inFocus"]]


def test_click_on_a_module_zooms_in_once_time_runs_and_out_zooms_out(http: httpx.Client) -> None:
    start_lit(http)
    x, y = a_module_point(http)
    response = act(http, "click", x_pos=x, y_pos=y)
    assert response.status_code == 200
    assert http.get("/timestep").status_code == 200
    assert len(focused(http)) == 1
    response = act(http, "out")
    assert response.status_code == 200 and response.text.startswith("Zooming out from:")
    assert http.get("/timestep").status_code == 200
    assert focused(http) == []


def test_click_on_nothing(http: httpx.Client) -> None:
    start_lit(http)
    response = act(http, "click", x_pos=0.005, y_pos=0.005)
    assert response.status_code == 200
    assert response.text.startswith("No interactable hit")


def test_out_without_zoom(http: httpx.Client) -> None:
    start_lit(http)
    assert act(http, "out").text == "No module zoomed into"


@pytest.mark.parametrize(
    ("actions", "side"),
    [
        (["left"], "left"),
        (["right"], "right"),
        (["left", "right"], "front"),
        (["flip"], "back"),
        (["up"], "top"),
        (["down"], "bottom"),
        (["up", "up"], "top"),
        (["up", "down"], "front"),
    ],
)
def test_rotations_change_bomb_side(http: httpx.Client, actions: list[str], side: str) -> None:
    start_lit(http)
    for action in actions:
        response = act(http, action)
        assert response.status_code == 200 and response.text.startswith("flipped bomb")
        assert http.get("/timestep").status_code == 200
    assert state(http)["bombSide"] == side


@pytest.mark.parametrize(
    "point", [{"x_pos": "abc", "y_pos": "0.5"}, {"x_pos": "1.5", "y_pos": "0.5"}]
)
@pytest.mark.parametrize("action", ["click", "hold"])
def test_bad_coordinates(http: httpx.Client, action: str, point: dict[str, str]) -> None:
    start_lit(http)
    response = http.get("/action", params={"action": action, **point})
    assert_refused(response, 400, "Could not parse x and y coordinates")


def test_unknown_action_names_the_valid_ones(http: httpx.Client) -> None:
    start_lit(http)
    response = act(http, "dance")
    assert_refused(
        response, 400, "invalid direction. Valid directions: left, right, up, down, flip"
    )
