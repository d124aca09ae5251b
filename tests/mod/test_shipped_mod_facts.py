"""Facts of GPTNT's compiled mod (``../shared/fixtures/gptnt-mod``) that the simulator matches.

The names are read from the assembly's metadata strings (property getters are ``get_<name>``
there); the behaviour they stand for is described in docs/mechanics-audit.md. Skipped when the
fixtures are absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

MOD = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "gptnt-mod"
ASSEMBLY = MOD / "TwitchPlaysAssembly.dll"

# /state's top-level keys as our simulator sends them (tests/contract/test_state.py).
STATE_KEYS = (
    "seed", "maxStrikes", "isDetonated", "isSolved", "isLightOn", "bombSide", "timerModule",
    "widgets", "modules", "strikes",
)  # fmt: skip


def _assembly() -> bytes:
    if not ASSEMBLY.is_file():
        pytest.skip("../shared/fixtures/gptnt-mod is absent")
    return ASSEMBLY.read_bytes()


@pytest.mark.fixtures
def test_the_shipped_bomb_state_has_our_keys_and_no_current_strikes() -> None:
    data = _assembly()
    for key in STATE_KEYS:
        assert b"\x00get_" + key.encode() + b"\x00" in data, key
    assert b"get_currentStrikes" not in data


@pytest.mark.fixtures
def test_the_lottery_and_the_venn_segmentation_are_where_the_audit_says() -> None:
    """The names the audit's reading of the IL rests on: the lottery's draw, the Venn wire
    replacement in segmentation, the selectable scan both start from."""
    data = _assembly()
    for name in (b"LotterySolver", b"Scratch", b"tryGetVennWires", b"GetActiveSelectables"):
        assert b"\x00" + name + b"\x00" in data, name
