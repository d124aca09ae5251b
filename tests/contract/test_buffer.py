"""``/buffer`` byte layout (§3.2), frame-count growth with ``/timestep``, ``/old-buffer``."""

from __future__ import annotations

import base64
import io
import itertools
import struct

import httpx
import numpy as np
import pytest
from PIL import Image

from gptnt.protocol import decode_buffer, decode_png_buffer

from ._backend import start_lit, to_setup

RING = 16


def header(body: bytes) -> tuple[int, int, int, int]:
    """(has_segmentation, frame_count, height, width) from the 13-byte little-endian header."""
    return struct.unpack_from("<Biii", body)


def test_layout_at_lights_on(http: httpx.Client) -> None:
    start_lit(http)
    response = http.get("/buffer")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/octet-stream"
    body = response.content
    assert int(response.headers["content-length"]) == len(body)
    has_mask, count, height, width = header(body)
    assert has_mask == 1  # the bomb is held facing the camera: modules are segmentable
    assert 1 <= count <= RING and width > 0 and height > 0
    assert len(body) == 13 + (count + has_mask) * width * height * 3
    buffer = decode_buffer(body)
    assert buffer.mask is not None and buffer.mask.any()
    assert buffer.frames[-1].std() > 0  # a picture, not a flat fill


@pytest.mark.parametrize("step_ms", [1000, 3000])
def test_frames_grow_four_per_game_second_up_to_16(http: httpx.Client, step_ms: int) -> None:
    """One frame per 0.25 s of game time: ≈12 per 3000 ms step; the ring keeps 16."""
    start_lit(http)
    assert http.get("/setstepunit", params={"value": str(step_ms)}).status_code == 200
    per_step = step_ms // 250
    counts = [header(http.get("/buffer").content)[1]]
    while counts[-1] < RING and len(counts) < 8:
        assert http.get("/timestep").status_code == 200
        counts.append(header(http.get("/buffer").content)[1])
    for before, after in itertools.pairwise(counts):
        assert min(RING, before + per_step - 1) <= after <= min(RING, before + per_step + 1), counts
    assert counts[-1] == RING


def test_nothing_captured_while_paused(http: httpx.Client) -> None:
    start_lit(http)
    first = decode_buffer(http.get("/buffer").content)
    second = decode_buffer(http.get("/buffer").content)
    assert first.count == second.count
    assert np.array_equal(first.frames, second.frames)


def test_buffer_names_the_frame_size_in_every_state(http: httpx.Client) -> None:
    """The header's width and height are the render texture's, which exists from start-up:
    Setup reports 0 frames of the same size as a lit mission's frames (§3.2), never 0×0."""
    start_lit(http)
    lit = header(http.get("/buffer").content)
    to_setup(http)
    body = http.get("/buffer").content
    assert len(body) == 13
    has_mask, count, height, width = header(body)
    assert (has_mask, count) == (0, 0)
    assert (height, width) == lit[2:] and width > 0 and height > 0


def test_old_buffer_json(http: httpx.Client) -> None:
    start_lit(http)
    raw = decode_buffer(http.get("/buffer").content)
    document = http.get("/old-buffer").json()
    assert set(document) >= {"frames", "segmentation"}
    assert len(document["frames"]) == raw.count
    newest = Image.open(io.BytesIO(base64.b64decode(document["frames"][-1])))
    assert newest.size == raw.size
    assert np.array_equal(np.asarray(newest.convert("RGB")), raw.frames[-1])
    assert isinstance(document["segmentation"], str) and document["segmentation"]


@pytest.mark.sim_extension
@pytest.mark.parametrize("last", [1, 2, 5])
def test_last_keeps_the_newest_frames(http: httpx.Client, last: int) -> None:
    start_lit(http)
    http.get("/timestep")
    full = decode_buffer(http.get("/buffer").content)
    tail = decode_buffer(http.get("/buffer", params={"last": str(last)}).content)
    assert tail.count == last
    assert np.array_equal(tail.frames, full.frames[-last:])
    assert tail.mask is not None and full.mask is not None
    assert np.array_equal(tail.mask, full.mask)


@pytest.mark.sim_extension
def test_png_format_carries_the_same_pixels(http: httpx.Client) -> None:
    start_lit(http)
    raw = decode_buffer(http.get("/buffer", params={"last": "2"}).content)
    response = http.get("/buffer", params={"last": "2", "format": "png"})
    assert response.status_code == 200
    png = decode_png_buffer(response.content)
    assert np.array_equal(png.frames, raw.frames)
    assert png.mask is not None and raw.mask is not None
    assert np.array_equal(png.mask, raw.mask)
    assert len(response.content) < 13 + 3 * raw.size[0] * raw.size[1] * 3
