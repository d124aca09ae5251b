"""The ``/buffer`` frame codec, in both directions (docs/protocol.md §3.2), plus our PNG variant.

Raw layout (the shipped mod; all little-endian)::

    offset 0   u8    has_segmentation (0/1)
    offset 1   i32   frame_count      frames in the ring, the mask not counted
    offset 5   i32   frame_height
    offset 9   i32   frame_width
    offset 13        frame_count × H × W × 3 bytes: RGB24 frames, oldest first
    then             H × W × 3 bytes: the segmentation mask, iff has_segmentation

Every image has rows **bottom-to-top** (Unity's read-back order) and no row padding. Decoding
flips them to the usual top-down order with a numpy view: no copy, no per-pixel Python. The
arrays of a decoded ``FrameBuffer`` are read-only views into the response bytes.

A 200 response with an empty body (nothing recorded yet) decodes to zero frames and no mask.

PNG variant (``/buffer?format=png``, an extension of ours; the shipped mod ignores the
parameter and always answers raw)::

    8 bytes    magic b"GPTNTPNG"
    u8         has_mask (0/1)
    u32        count      frames, the mask not counted
    count × (u32 length, PNG bytes)          frames, oldest first
    (u32 length, PNG bytes)                  the mask, iff has_mask

PNG images are ordinary top-down RGB images. ``last=N`` (both formats) keeps only the newest N
frames, still oldest first. The PNG form lets the game service pass frames on without
re-encoding them (``unpack_png_buffer``) and cuts a 15 MB response to a few hundred KB.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gptnt.errors import FrameBufferError

_HEADER = struct.Struct("<?iii")  # has_segmentation, frame_count, frame_height, frame_width
HEADER_SIZE = _HEADER.size  # 13
PNG_MAGIC = b"GPTNTPNG"
_PNG_HEAD = struct.Struct("<?I")  # has_mask, count
_PNG_LEN = struct.Struct("<I")
MAX_FRAME_PIXELS = 4096 * 4096
"""The largest image a frame or mask may be (a 4K screen is 3840 × 2160): a PNG's header says
its size before a byte is inflated, and a few KB of PNG can claim gigabytes of pixels."""


@dataclass(frozen=True)
class FrameBuffer:
    """Decoded ``/buffer``: frames (N, H, W, 3) uint8 top-down, oldest first; mask (H, W, 3)."""

    frames: np.ndarray
    mask: np.ndarray | None

    @property
    def count(self) -> int:
        return int(self.frames.shape[0])

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels; (0, 0) for an empty buffer."""
        return int(self.frames.shape[2]), int(self.frames.shape[1])

    @property
    def newest(self) -> np.ndarray | None:
        """The most recent frame, or None when nothing was recorded."""
        return self.frames[-1] if self.count else None


@dataclass(frozen=True)
class PngBuffer:
    """``/buffer?format=png`` unpacked but not decoded: PNG bytes per frame, oldest first."""

    frames: list[bytes]
    mask: bytes | None


def _image_shape(frames: Sequence[np.ndarray], mask: np.ndarray | None) -> tuple[int, int]:
    """(height, width) shared by every image; checks dtype and channel count."""
    images = [*frames, *([] if mask is None else [mask])]
    if not images:
        return 0, 0
    first = images[0]
    for i, image in enumerate(images):
        what = "mask" if mask is not None and i == len(images) - 1 else f"frame {i}"
        if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
            raise FrameBufferError(
                f"{what}: expected an (H, W, 3) uint8 array, got {image.shape} {image.dtype}"
            )
        if image.shape != first.shape:
            raise FrameBufferError(f"{what}: shape {image.shape} differs from {first.shape}")
    return int(first.shape[0]), int(first.shape[1])


def encode_buffer(
    frames: Sequence[np.ndarray],
    mask: np.ndarray | None = None,
    *,
    size: tuple[int, int] | None = None,
) -> bytes:
    """Pack top-down RGB frames (oldest first) and an optional mask into the mod's layout.

    ``size`` (width, height) goes into the header when there is no image at all: the mod's
    header always carries its render texture's size, which exists from start-up on (so a
    ``/buffer`` in ``Setup`` reads 0 frames of 640×480, not 0×0).
    """
    height, width = _image_shape(frames, mask)
    if not frames and mask is None and size is not None:
        width, height = size
    images = list(frames) if mask is None else [*frames, mask]
    out = np.empty(HEADER_SIZE + len(images) * height * width * 3, np.uint8)
    out[:HEADER_SIZE] = np.frombuffer(
        _HEADER.pack(mask is not None, len(frames), height, width), np.uint8
    )
    pixels = out[HEADER_SIZE:].reshape(len(images), height, width, 3)
    for slot, image in zip(pixels, images, strict=True):
        slot[:] = image[::-1]  # rows bottom-to-top, written straight into place
    return out.tobytes()


def decode_buffer(data: bytes) -> FrameBuffer:
    """Unpack the mod's ``/buffer`` bytes. Raises ``FrameBufferError`` naming the numbers."""
    if len(data) == 0:
        return FrameBuffer(frames=np.zeros((0, 0, 0, 3), np.uint8), mask=None)
    if len(data) < HEADER_SIZE:
        raise FrameBufferError(
            f"/buffer: {len(data)} bytes is shorter than the {HEADER_SIZE}-byte header",
            route="/buffer",
        )
    if data[0] > 1:
        raise FrameBufferError(
            f"/buffer: has_segmentation byte is {data[0]}, expected 0 or 1", route="/buffer"
        )
    has_mask, count, height, width = _HEADER.unpack_from(data)
    if count < 0 or height < 0 or width < 0:
        raise FrameBufferError(
            f"/buffer: negative header field (count={count}, height={height}, width={width})",
            route="/buffer",
        )
    image_size = height * width * 3
    images = count + int(has_mask)
    expected = HEADER_SIZE + images * image_size
    if len(data) != expected:
        raise FrameBufferError(
            f"/buffer: {len(data)} bytes, but the header (has_segmentation={int(has_mask)}, "
            f"count={count}, height={height}, width={width}) needs {expected}",
            route="/buffer",
        )
    pixels = np.frombuffer(data, np.uint8, count=images * image_size, offset=HEADER_SIZE)
    stack = pixels.reshape(images, height, width, 3)[:, ::-1]
    return FrameBuffer(frames=stack[:count], mask=stack[count] if has_mask else None)


# --------------------------------------------------------------------------- PNG variant


def pack_png_buffer(frames: Sequence[bytes], mask: bytes | None = None) -> bytes:
    """Frame the already-encoded PNG images in the ``GPTNTPNG`` container."""
    parts = [PNG_MAGIC, _PNG_HEAD.pack(mask is not None, len(frames))]
    for image in [*frames, *([] if mask is None else [mask])]:
        parts.append(_PNG_LEN.pack(len(image)))
        parts.append(image)
    return b"".join(parts)


def unpack_png_buffer(data: bytes) -> PngBuffer:
    """Split a ``GPTNTPNG`` container into its PNG images without decoding them."""
    if data[: len(PNG_MAGIC)] != PNG_MAGIC:
        raise FrameBufferError(
            f"/buffer?format=png: body starts with {data[:8]!r}, expected {PNG_MAGIC!r}",
            route="/buffer",
        )
    offset = len(PNG_MAGIC)
    if len(data) < offset + _PNG_HEAD.size:
        raise FrameBufferError(
            f"/buffer?format=png: {len(data)} bytes is shorter than the header", route="/buffer"
        )
    has_mask, count = _PNG_HEAD.unpack_from(data, offset)
    offset += _PNG_HEAD.size
    images: list[bytes] = []
    for i in range(count + int(has_mask)):
        if len(data) < offset + _PNG_LEN.size:
            raise FrameBufferError(
                f"/buffer?format=png: body ends at {len(data)} bytes before image {i} of "
                f"{count + int(has_mask)}",
                route="/buffer",
            )
        (length,) = _PNG_LEN.unpack_from(data, offset)
        offset += _PNG_LEN.size
        if len(data) < offset + length:
            raise FrameBufferError(
                f"/buffer?format=png: image {i} claims {length} bytes, only "
                f"{len(data) - offset} left",
                route="/buffer",
            )
        images.append(data[offset : offset + length])
        offset += length
    if offset != len(data):
        raise FrameBufferError(
            f"/buffer?format=png: {len(data) - offset} trailing bytes after {len(images)} images",
            route="/buffer",
        )
    return PngBuffer(frames=images[:count], mask=images[count] if has_mask else None)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_IHDR_RGB8 = (
    8,
    2,
    0,
    0,
    0,
)  # bit depth 8, colour type RGB, deflate, adaptive filters, no interlace


def encode_png(image: np.ndarray, *, compress_level: int = 1) -> bytes:
    """One top-down (H, W, 3) uint8 array as PNG bytes: every row with filter type 0 (none)
    and one zlib stream at ``compress_level``. Lossless like any PNG; about twice as fast as
    PIL's encoder at level 1 (which tries a filter per row), for a few percent more bytes on
    rendered frames (measured in issue 27; ``scripts/bench_server.py`` prints the cost)."""
    image = np.ascontiguousarray(image)
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise FrameBufferError(
            f"encode_png: need an (H, W, 3) uint8 array, got {image.shape} {image.dtype}",
            route="/buffer",
        )
    height, width = image.shape[:2]
    rows = np.zeros((height, width * 3 + 1), np.uint8)  # column 0: each row's filter byte
    rows[:, 1:] = image.reshape(height, width * 3)
    header = struct.pack(">II", width, height) + bytes(_IHDR_RGB8)
    return b"".join(
        (
            PNG_SIGNATURE,
            _png_chunk(b"IHDR", header),
            _png_chunk(b"IDAT", zlib.compress(rows.tobytes(), compress_level)),
            _png_chunk(b"IEND", b""),
        )
    )


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def decode_png(data: bytes) -> np.ndarray:
    """PNG bytes → top-down (H, W, 3) uint8 array. Our own PNGs (one IDAT of unfiltered RGB
    rows, as ``encode_png`` writes) are read with zlib alone; any other PNG through PIL."""
    if data.startswith(PNG_SIGNATURE) and len(data) >= 24:
        _check_pixels(*struct.unpack(">II", data[16:24]))
    fast = _decode_unfiltered(data)
    if fast is not None:
        return fast
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data), formats=["PNG"]) as image:
            _check_pixels(*image.size)
            return np.asarray(image.convert("RGB"))
    except FrameBufferError:
        raise
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError, struct.error,
            Image.DecompressionBombError) as err:  # fmt: skip
        raise FrameBufferError(
            f"/buffer?format=png: bad PNG image: {err}", route="/buffer"
        ) from err


def _check_pixels(width: int, height: int) -> None:
    if width * height > MAX_FRAME_PIXELS:
        raise FrameBufferError(
            f"/buffer?format=png: a {width} × {height} image is over the {MAX_FRAME_PIXELS} "
            "pixels a frame may have",
            route="/buffer",
        )


def _decode_unfiltered(data: bytes) -> np.ndarray | None:
    """The pixels of a PNG laid out exactly as ``encode_png`` writes it, else None."""
    ihdr_end = len(PNG_SIGNATURE) + 8 + 13 + 4
    if not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR" or len(data) < ihdr_end + 12:
        return None
    width, height = struct.unpack(">II", data[16:24])
    if tuple(data[24:29]) != _IHDR_RGB8 or data[ihdr_end + 4 : ihdr_end + 8] != b"IDAT":
        return None
    (length,) = struct.unpack(">I", data[ihdr_end : ihdr_end + 4])
    start = ihdr_end + 8
    if data[start + length + 4 :] != _png_chunk(b"IEND", b""):
        return None
    expected = height * (width * 3 + 1)
    try:  # never inflated past the size the header gave
        raw = zlib.decompressobj().decompress(data[start : start + length], expected + 1)
    except zlib.error:
        return None
    if len(raw) != expected:
        return None
    rows = np.frombuffer(raw, np.uint8).reshape(height, width * 3 + 1)
    if rows[:, 0].any():  # some row uses a filter: not one of ours
        return None
    return rows[:, 1:].reshape(height, width, 3).copy()


def encode_png_buffer(
    frames: Sequence[np.ndarray], mask: np.ndarray | None = None, *, compress_level: int = 1
) -> bytes:
    """Top-down RGB arrays (oldest first) and an optional mask → ``GPTNTPNG`` container."""
    _image_shape(frames, mask)
    encoded = [encode_png(f, compress_level=compress_level) for f in frames]
    mask_png = None if mask is None else encode_png(mask, compress_level=compress_level)
    return pack_png_buffer(encoded, mask_png)


def decode_png_buffer(data: bytes) -> FrameBuffer:
    """``GPTNTPNG`` container → the same ``FrameBuffer`` the raw codec gives."""
    packed = unpack_png_buffer(data)
    frames = [decode_png(image) for image in packed.frames]
    mask = None if packed.mask is None else decode_png(packed.mask)
    _image_shape(frames, mask)
    stack = np.stack(frames) if frames else np.zeros((0, 0, 0, 3), np.uint8)
    if mask is not None and not frames:
        stack = np.zeros((0, *mask.shape), np.uint8)
    return FrameBuffer(frames=stack, mask=mask)
