"""Shared set-up of the simulator tests.

Pytest puts this folder on ``sys.path`` when it loads this file, so the engine tests' helper
module ``_support`` is importable from ``tests/sim/render`` too. The helper modules get pytest's
assertion messages like the tests that import them.
"""

from __future__ import annotations

import pytest

pytest.register_assert_rewrite("_support", "_views")
