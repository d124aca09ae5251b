"""The C# mod under Mono: build it, run its unit tests, and hold it to the contract suite.

``mod/build.sh`` compiles the protocol core with the fake game into ``gptnt-mod-host.exe`` and
the Unity adapter against the reference stubs; the host then serves the protocol on a loopback
port, and ``tests/contract`` (the same black-box suite the simulator passes) runs against it in a
subprocess. Skipped, with the reason, where Mono is not installed.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from child_server import child_server
from contract._backend import start_lit

from gptnt.services.bus import free_port

REPO = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 320, 240  # small frames keep the contract run quick; any size is allowed

pytestmark = pytest.mark.skipif(
    shutil.which("mcs") is None or shutil.which("mono") is None,
    reason="Mono is not installed (apt-get install mono-mcs mono-devel); the C# mod cannot be built",
)


@pytest.fixture(scope="module")
def host(built: Path) -> Iterator[str]:
    """``mono gptnt-mod-host.exe`` on a free loopback port; its URL once ``/health`` answers."""
    port = free_port()
    env = {**os.environ, "port": str(port), "GAME_WIDTH": str(WIDTH), "GAME_HEIGHT": str(HEIGHT)}
    url = f"http://127.0.0.1:{port}"
    with child_server(["mono", str(built / "gptnt-mod-host.exe")], url, env=env):
        yield url


def _lit_mission(http: httpx.Client, components: str, is_front: str = "true") -> None:
    """The contract tests' sync start (Setup → /startMission → LightsOff → pause → /timestep
    until LightsOn) of seed 7 with five widgets."""
    start_lit(http, seed="7", optWidgets="5", components=components, isFront=is_front)


def test_csharp_unit_tests_pass(built: Path) -> None:
    result = subprocess.run(
        ["mono", str(built / "gptnt-mod-tests.exe")],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    passed, failed = (int(part.split()[0]) for part in summary.split(", "))
    assert failed == 0 and passed >= 10, summary


def test_unity_adapter_compiles_against_the_stubs(built: Path) -> None:
    assert (built / "GptntMod.dll").stat().st_size > 0
    for stub in ("UnityEngine.dll", "KMFramework.dll", "Assembly-CSharp.dll"):
        assert (built / "stubs" / stub).is_file()


def test_host_serves_the_requested_frame_size(host: str) -> None:
    """GAME_WIDTH/GAME_HEIGHT reach the frames: the header carries them at lights-on."""
    with httpx.Client(base_url=host, timeout=60) as http:
        _lit_mission(http, "Memory,Maze")
        has_mask, count, height, width = struct.unpack_from("<Biii", http.get("/buffer").content)
        assert (width, height, has_mask) == (WIDTH, HEIGHT, 1) and count >= 1


def test_state_of_every_module_kind_validates(host: str) -> None:
    """The C# JSON writer against the Python models, for all eleven module kinds at once."""
    from gptnt.protocol import MODULE_KINDS, BombState

    with httpx.Client(base_url=host, timeout=60) as http:
        _lit_mission(http, ",".join(MODULE_KINDS), is_front="false")
        bomb = BombState.model_validate_json(http.get("/state").content)
    assert sorted(m.name for m in bomb.modules) == sorted(MODULE_KINDS)
    assert {w.name for w in bomb.widgets} >= {"SerialNumber"}
    places = {(m.on_front, m.index) for m in bomb.modules}
    places.add((bomb.timer_module.on_front, bomb.timer_module.index))
    assert len(places) == 12  # eleven modules and the timer, each in its own slot


@pytest.mark.slow
def test_contract_suite_passes_against_the_mod(host: str) -> None:
    """The simulator's black-box protocol suite, unchanged, against the C# implementation."""
    env = {**os.environ, "GPTNT_GAME_URL": host, "GPTNT_CONTRACT_DEADLINE": "30"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", str(REPO / "tests" / "contract"), "-q",
         "-p", "no:cacheprovider", "-o", "addopts="],
        check=False, cwd=REPO, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and " failed" not in result.stdout
