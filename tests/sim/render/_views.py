"""What the module-view tests check the same way: the canvas contract of ``ModuleView`` (sizes
and modes, the status-LED corner left free), same pictures, and counting pixels of a colour."""

from __future__ import annotations

import numpy as np
from PIL import Image

from gptnt.sim.render._view import LED_CENTER, LED_RADIUS, MODULE_SIZE, ModuleView
from gptnt.sim.render.modules._plate import Canvas


def assert_module_canvas(view: ModuleView) -> None:
    """The face is an RGB square of ``MODULE_SIZE``, the ids a uint8 canvas of the same size."""
    assert view.image.size == (MODULE_SIZE, MODULE_SIZE) and view.image.mode == "RGB"
    assert view.ids.shape == (MODULE_SIZE, MODULE_SIZE) and view.ids.dtype == np.uint8


def assert_led_corner_free(view: ModuleView) -> None:
    """The status-LED corner is bare plate with nothing clickable: the compositor draws there."""
    x, y = LED_CENTER
    r = LED_RADIUS
    assert not view.ids[y - r : y + r, x - r : x + r].any()
    corner = (x - r, y - r, x + r, y + r)
    assert view.image.crop(corner).tobytes() == Canvas().image.crop(corner).tobytes()


def assert_same_view(a: ModuleView, b: ModuleView) -> None:
    """Two drawings are the same picture and the same ids, pixel for pixel."""
    assert a.image.tobytes() == b.image.tobytes() and (a.ids == b.ids).all()


def count_near(
    image: Image.Image | np.ndarray,
    rgb: tuple[int, int, int],
    *,
    tol: int,
    box: tuple[int, int, int, int] | None = None,
    mask: np.ndarray | None = None,
) -> int:
    """Pixels of ``image`` (within ``box`` or where ``mask`` is set) whose every channel is
    within ``tol`` of ``rgb``."""
    pixels = np.asarray(image).astype(int)
    if box is not None:
        x0, y0, x1, y1 = box
        pixels = pixels[y0:y1, x0:x1]
    if mask is not None:
        pixels = pixels[mask]
    return int((np.abs(pixels - rgb).max(axis=-1) <= tol).sum())
