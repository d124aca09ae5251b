"""The /buffer codec: raw layout of the shipped mod and our GPTNTPNG container."""

from __future__ import annotations

import struct
import tracemalloc
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from gptnt.errors import FrameBufferError
from gptnt.protocol import (
    HEADER_SIZE,
    decode_buffer,
    decode_png,
    decode_png_buffer,
    encode_buffer,
    encode_png_buffer,
    pack_png_buffer,
    unpack_png_buffer,
)
from gptnt.protocol._buffer import MAX_FRAME_PIXELS, PNG_SIGNATURE, _png_chunk


@st.composite
def frame_sets(draw, max_side: int = 12, max_count: int = 5):
    height = draw(st.integers(1, max_side))
    width = draw(st.integers(1, max_side))
    count = draw(st.integers(0, max_count))
    image = arrays(np.uint8, (height, width, 3))
    frames = [draw(image) for _ in range(count)]
    mask = draw(st.none() | image)
    return frames, mask


@given(frame_sets())
def test_raw_round_trip(case) -> None:
    frames, mask = case
    data = encode_buffer(frames, mask)
    images = len(frames) + (mask is not None)
    if images:
        h, w = (frames or [mask])[0].shape[:2]
        assert len(data) == HEADER_SIZE + images * h * w * 3
    decoded = decode_buffer(data)
    assert decoded.count == len(frames)
    for got, want in zip(decoded.frames, frames, strict=True):
        np.testing.assert_array_equal(got, want)
    if mask is None:
        assert decoded.mask is None
    else:
        np.testing.assert_array_equal(decoded.mask, mask)


@settings(max_examples=30)
@given(frame_sets(max_side=8, max_count=3))
def test_png_round_trip(case) -> None:
    frames, mask = case
    decoded = decode_png_buffer(encode_png_buffer(frames, mask))
    assert decoded.count == len(frames)
    for got, want in zip(decoded.frames, frames, strict=True):
        np.testing.assert_array_equal(got, want)
    assert (decoded.mask is None) == (mask is None)
    if mask is not None:
        np.testing.assert_array_equal(decoded.mask, mask)


def test_hand_built_buffer_is_flipped_top_down() -> None:
    """Two 2×3 frames and a mask, written byte by byte as Unity does: bottom row first."""
    height, width = 2, 3

    def pixel(image: int, row: int, col: int) -> tuple[int, int, int]:
        return (image * 50 + row * 10 + col, 200 - row, 7 * col)

    body = bytearray(b"\x01" + struct.pack("<iii", 2, height, width))
    assert len(body) == 13
    for image in range(3):  # frame 0 (oldest), frame 1, mask
        for row in reversed(range(height)):  # bottom-to-top
            for col in range(width):
                body += bytes(pixel(image, row, col))
    decoded = decode_buffer(bytes(body))
    assert decoded.frames.shape == (2, height, width, 3)
    assert decoded.size == (width, height)
    for image in range(2):
        for row in range(height):
            for col in range(width):
                assert tuple(decoded.frames[image, row, col]) == pixel(image, row, col)
    assert tuple(decoded.mask[0, 2]) == pixel(2, 0, 2)
    assert tuple(decoded.newest[1, 0]) == pixel(1, 1, 0)
    # Views into the response, not copies.
    assert not decoded.frames.flags.writeable and not decoded.frames.flags.owndata


def test_empty_ring() -> None:
    decoded = decode_buffer(struct.pack("<?iii", False, 0, 480, 640))
    assert decoded.count == 0 and decoded.mask is None and decoded.newest is None
    assert decode_buffer(b"").count == 0


def test_mask_without_frames() -> None:
    mask = np.full((4, 5, 3), 9, np.uint8)
    decoded = decode_buffer(encode_buffer([], mask))
    assert decoded.count == 0
    np.testing.assert_array_equal(decoded.mask, mask)


@pytest.mark.parametrize(
    ("data", "numbers"),
    [
        (struct.pack("<?iii", True, 2, 4, 4) + bytes(2 * 48), ["109", "157", "count=2"]),
        (struct.pack("<?iii", False, 1, 4, 4) + bytes(49), ["62", "61"]),
        (b"\x00\x01", ["2 bytes", "13-byte"]),
        (struct.pack("<?iii", False, -1, 4, 4), ["count=-1"]),
        (b"\x07" + struct.pack("<iii", 0, 1, 1), ["is 7"]),
    ],
)
def test_bad_lengths_name_the_numbers(data: bytes, numbers: list[str]) -> None:
    with pytest.raises(FrameBufferError) as info:
        decode_buffer(data)
    for number in numbers:
        assert number in str(info.value)


def test_encode_refuses_mismatched_shapes() -> None:
    with pytest.raises(FrameBufferError, match="differs"):
        encode_buffer([np.zeros((2, 2, 3), np.uint8), np.zeros((2, 3, 3), np.uint8)])
    with pytest.raises(FrameBufferError, match="uint8"):
        encode_buffer([np.zeros((2, 2, 3), np.float32)])


def test_png_container_layout_and_errors() -> None:
    packed = pack_png_buffer([b"AAA", b"BB"], b"M")
    assert packed[:8] == b"GPTNTPNG"
    assert packed[8:13] == struct.pack("<?I", True, 2)
    assert packed[13:17] == struct.pack("<I", 3) and packed[17:20] == b"AAA"
    unpacked = unpack_png_buffer(packed)
    assert unpacked.frames == [b"AAA", b"BB"] and unpacked.mask == b"M"
    with pytest.raises(FrameBufferError, match="claims 3 bytes"):
        unpack_png_buffer(packed[:19])
    with pytest.raises(FrameBufferError, match="trailing"):
        unpack_png_buffer(packed + b"x")
    with pytest.raises(FrameBufferError, match="expected b'GPTNTPNG'"):
        unpack_png_buffer(b"\x00" * 20)
    with pytest.raises(FrameBufferError, match="bad PNG"):
        decode_png_buffer(pack_png_buffer([b"not a png"]))


@settings(max_examples=25, deadline=None)
@given(arrays(np.uint8, st.tuples(st.integers(1, 40), st.integers(1, 40), st.just(3))))
def test_our_png_is_a_standard_lossless_png_and_we_read_any_png(image: np.ndarray) -> None:
    import io

    from PIL import Image

    from gptnt.protocol import decode_png, encode_png

    ours = encode_png(image)
    with Image.open(io.BytesIO(ours)) as decoded:  # any PNG reader gets the same pixels
        assert (np.asarray(decoded.convert("RGB")) == image).all()
    assert (decode_png(ours) == image).all()
    out = io.BytesIO()
    Image.fromarray(image).save(out, format="PNG", compress_level=9)  # filtered rows
    assert (decode_png(out.getvalue()) == image).all()
    with pytest.raises(FrameBufferError, match="bad PNG"):
        decode_png(ours[: len(ours) // 2])


def test_a_png_claiming_more_pixels_than_a_frame_has_is_refused_uninflated() -> None:
    """A few KB of PNG can claim gigabytes of pixels: its header's size is checked first, and
    our own layout is never inflated past the size its header gives."""
    co = zlib.compressobj(9)
    zeros = b"".join(co.compress(bytes(1 << 20)) for _ in range(64)) + co.flush()  # 64 MB
    for width, height in ((30_000, 30_000), (MAX_FRAME_PIXELS + 1, 1)):
        header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
        bomb = (PNG_SIGNATURE + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", zeros)
                + _png_chunk(b"IEND", b""))  # fmt: skip
        tracemalloc.start()
        try:
            with pytest.raises(FrameBufferError, match="pixels a frame may have"):
                decode_png(bomb)
            assert tracemalloc.get_traced_memory()[1] < 4 * len(bomb)
        finally:
            tracemalloc.stop()
    # Within the size, the stream is inflated only as far as the header's rows.
    header = struct.pack(">IIBBBBB", 64, 64, 8, 2, 0, 0, 0)
    small = (PNG_SIGNATURE + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", zeros)
             + _png_chunk(b"IEND", b""))  # fmt: skip
    tracemalloc.start()
    try:
        assert decode_png(small).shape == (64, 64, 3)
        assert tracemalloc.get_traced_memory()[1] < 4 * len(zeros)
    finally:
        tracemalloc.stop()
