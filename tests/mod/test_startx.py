"""``scripts/startx.py``: the xorg.conf it writes for headless KTANE, checked with ``--dry-run``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "startx.py"

LSPCI = """\
0000:00:02.0 VGA compatible controller [0300]: Intel Corporation UHD Graphics 630 [8086:3e92]
0000:3b:00.0 VGA compatible controller [0300]: NVIDIA Corporation TU102 [GeForce RTX 2080 Ti] [10de:1e04] (rev a1)
0000:3b:00.1 Audio device [0403]: NVIDIA Corporation TU102 High Definition Audio Controller [10de:10f7] (rev a1)
0000:af:00.0 3D controller [0302]: NVIDIA Corporation GA100 [A100 PCIe 40GB] [10de:20f1] (rev a1)
"""


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_dry_run_writes_one_screen_per_gpu_from_lspci(tmp_path: Path) -> None:
    listing = tmp_path / "lspci.txt"
    listing.write_text(LSPCI)
    result = run(
        "3", "--dry-run", "--lspci-output", str(listing), "--config", str(tmp_path / "x.conf")
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # Hex PCI addresses become Xorg's decimal BusIDs; the Intel GPU and the audio function are skipped.
    assert 'BusID "PCI:59:0:0"' in out and 'BusID "PCI:175:0:0"' in out
    assert out.count('Driver "nvidia"') == 2
    assert out.count("Virtual 1024 768") == 2 and "DefaultDepth 24" in out
    assert 'Screen 0 "Screen0"' in out and 'Screen 1 "Screen1"' in out
    command = next(line for line in out.splitlines() if line.startswith("# command: "))
    assert command.endswith(f"-config {tmp_path / 'x.conf'} :3")
    assert "-noreset +extension GLX +extension RANDR +extension RENDER" in command
    assert "DISPLAY=:3.0 DISPLAY=:3.1" in out
    assert not (tmp_path / "x.conf").exists()  # a dry run writes nothing


def test_bus_ids_by_hand_and_screen_size() -> None:
    result = run("--dry-run", "--bus-id", "PCI:1:0:0", "--width", "800", "--height", "600")
    assert result.returncode == 0, result.stderr
    assert 'BusID "PCI:1:0:0"' in result.stdout and "Virtual 800 600" in result.stdout
    assert result.stdout.rstrip().splitlines()[-2].endswith(":0")


def test_refusals_are_one_line() -> None:
    bad = run("--dry-run", "--bus-id", "0000:3b:00.0")
    assert bad.returncode == 2 and "PCI:59:0:0" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_no_gpu_is_an_error(tmp_path: Path) -> None:
    listing = tmp_path / "lspci.txt"
    listing.write_text(LSPCI.splitlines()[0] + "\n")
    result = run("--dry-run", "--lspci-output", str(listing))
    assert result.returncode == 1 and "no NVIDIA GPU found" in result.stderr
