"""``gptnt sim serve --mask-style game`` over real HTTP: masks blended like the real game's
(edges that meet the background scaled towards black) still give exactly one set-of-marks
label per element, and every label's click point presses its own element."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import numpy as np
import pytest
from child_server import GPTNT, child_server
from contract._backend import start_lit

from gptnt.missions import get_mission
from gptnt.protocol import decode_buffer
from gptnt.services.bus import free_port
from gptnt.vision import build_marks, find_regions


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with (
        child_server([*GPTNT, "sim", "serve", "--port", str(port), "--mask-style", "game"], url),
        httpx.Client(base_url=url, timeout=30.0) as client,
    ):
        yield client


def _marks(http: httpx.Client, kind: str | None):  # type: ignore[no-untyped-def]
    buffer = decode_buffer(http.get("/buffer").content)
    assert buffer.mask is not None
    return buffer.mask, build_marks(buffer.mask, buffer.frames[-1], kind)


@pytest.mark.parametrize(("mission", "elements"), [("Keypad-234", 4)])
def test_game_style_masks_give_one_label_per_element(
    http: httpx.Client, mission: str, elements: int
) -> None:
    config = get_mission(mission).config.model_copy(update={"num_strikes": 5})  # press them all
    start_lit(http, **config.to_query())
    _, face = _marks(http, None)
    (module,) = face.marks
    x, y = face.click_point(module.label)  # type: ignore[misc]
    http.get("/action", params={"action": "click", "x_pos": str(x), "y_pos": str(y)})
    http.get("/timestep")
    kind = config.components[0]
    mask, marks = _marks(http, kind)
    flat = (mask.max(axis=-1) == 255) & (mask.min(axis=-1) == 0)
    assert (~flat & (mask.max(axis=-1) > 0)).sum() > 100  # blended, not flat
    assert len(np.unique(mask.reshape(-1, 3), axis=0)) > elements + 1
    assert len(find_regions(mask)) == elements == len(marks.marks)
    pressed = set()
    for mark in marks.marks:
        x, y = marks.click_point(mark.label)  # type: ignore[misc]
        reply = http.get("/action", params={"action": "hold", "x_pos": str(x), "y_pos": str(y)})
        assert reply.text.startswith(f"clicked on: {kind}/"), reply.text
        pressed.add(reply.text)
        http.get("/action", params={"action": "release"})
    assert len(pressed) == elements  # each label pressed a different element
