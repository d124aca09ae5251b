#!/usr/bin/env python3
"""Start a GPU-backed X server for headless KTANE (mod/README.md, "Headless on Linux").

KTANE is an ordinary Unity game: it needs a real OpenGL context, and software rendering is too
slow for its clock. On a GPU box without a monitor we run Xorg on the NVIDIA GPUs themselves:
this script writes an ``xorg.conf`` with one Device + Screen per GPU (BusIDs found with
``lspci``; a virtual 1024×768 screen at depth 24, no monitor needed) and starts::

    Xorg -noreset +extension GLX +extension RANDR +extension RENDER -config <conf> :<display>

Screen i of display N is ``DISPLAY=:N.i``; give each game its own screen to spread games over
GPUs. Starting Xorg needs root (or the ``xserver-xorg`` setuid wrapper) and the NVIDIA driver
with its Xorg module; ``--dry-run`` only prints the config and the command.

Examples::

    sudo scripts/startx.py 0                   # every NVIDIA GPU, display :0
    scripts/startx.py 1 --dry-run              # show what would be written and run
    scripts/startx.py 0 --bus-id PCI:59:0:0    # one GPU, BusID given by hand
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

NVIDIA_VENDOR = "10de"
# "0000:3b:00.0 VGA compatible controller [0300]: NVIDIA Corporation ... [10de:1e04]"
_LSPCI_LINE = re.compile(
    r"^(?:(?P<domain>[0-9a-f]{4}):)?(?P<bus>[0-9a-f]{2}):(?P<device>[0-9a-f]{2})\.(?P<function>[0-7])\s+"
    r"(?P<kind>VGA compatible controller|3D controller|Display controller)",
    re.IGNORECASE,
)
_BUS_ID = re.compile(r"^PCI:\d+:\d+:\d+$")


@dataclass(frozen=True)
class Gpu:
    """One GPU as Xorg names it: ``PCI:bus:device:function``, all decimal."""

    bus_id: str
    description: str = ""


def gpus_from_lspci(text: str) -> list[Gpu]:
    """NVIDIA display-capable devices from ``lspci -D -nn -d 10de:`` output (hex → decimal)."""
    found: list[Gpu] = []
    for line in text.splitlines():
        match = _LSPCI_LINE.match(line.strip())
        if match is None or NVIDIA_VENDOR not in line.lower():
            continue
        bus, device, function = (int(match[name], 16) for name in ("bus", "device", "function"))
        found.append(Gpu(f"PCI:{bus}:{device}:{function}", line.split(":", 3)[-1].strip()))
    return found


def detect_gpus() -> list[Gpu]:
    """Ask ``lspci`` for NVIDIA GPUs; empty when lspci is missing or finds none."""
    try:
        result = subprocess.run(
            ["lspci", "-D", "-nn", "-d", f"{NVIDIA_VENDOR}:"],
            capture_output=True, text=True, timeout=20, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return []
    return gpus_from_lspci(result.stdout)


def xorg_conf(gpus: list[Gpu], width: int, height: int) -> str:
    """An xorg.conf with one headless NVIDIA screen per GPU, all in one server layout."""
    parts = ['Section "ServerLayout"', '    Identifier "gptnt"']
    parts += [f'    Screen {i} "Screen{i}" {i * width} 0' for i in range(len(gpus))]
    parts += ['    Option "BlankTime" "0"', '    Option "StandbyTime" "0"',
              '    Option "SuspendTime" "0"', '    Option "OffTime" "0"', "EndSection", ""]  # fmt: skip
    for i, gpu in enumerate(gpus):
        parts += [
            'Section "Device"',
            f'    Identifier "Device{i}"',
            '    Driver "nvidia"',
            f'    BusID "{gpu.bus_id}"',
            '    Option "AllowEmptyInitialConfiguration" "true"',
            '    Option "ConnectedMonitor" "DFP-0"',
            "EndSection",
            "",
            'Section "Monitor"',
            f'    Identifier "Monitor{i}"',
            '    Option "DPMS" "false"',
            "EndSection",
            "",
            'Section "Screen"',
            f'    Identifier "Screen{i}"',
            f'    Device "Device{i}"',
            f'    Monitor "Monitor{i}"',
            "    DefaultDepth 24",
            '    SubSection "Display"',
            "        Depth 24",
            f"        Virtual {width} {height}",
            "    EndSubSection",
            "EndSection",
            "",
        ]
    return "\n".join(parts)


def xorg_command(config: Path, display: int) -> list[str]:
    return [
        "Xorg", "-noreset", "+extension", "GLX", "+extension", "RANDR", "+extension", "RENDER",
        "-config", str(config), f":{display}",
    ]  # fmt: skip


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "display", nargs="?", type=int, default=0, help="X display number (default 0)"
    )
    parser.add_argument("--dry-run", action="store_true", help="print the config and command only")
    parser.add_argument(
        "--bus-id", action="append", default=[], metavar="PCI:B:D:F",
        help="use this GPU (repeatable) instead of asking lspci",
    )  # fmt: skip
    parser.add_argument("--lspci-output", type=Path, help="read lspci output from this file")
    parser.add_argument("--config", type=Path, help="where to write xorg.conf")
    parser.add_argument("--width", type=int, default=1024, help="virtual screen width (px)")
    parser.add_argument("--height", type=int, default=768, help="virtual screen height (px)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _parse(sys.argv[1:] if argv is None else argv)
    for bus_id in args.bus_id:
        if not _BUS_ID.match(bus_id):
            print(
                f"error: --bus-id {bus_id!r} must look like PCI:59:0:0 (decimal)", file=sys.stderr
            )
            return 2
    if args.width < 64 or args.height < 64:
        print("error: --width/--height must be at least 64 pixels", file=sys.stderr)
        return 2
    if args.bus_id:
        gpus = [Gpu(bus_id) for bus_id in args.bus_id]
    elif args.lspci_output is not None:
        gpus = gpus_from_lspci(args.lspci_output.read_text())
    else:
        gpus = detect_gpus()
    if not gpus:
        print(
            "error: no NVIDIA GPU found (lspci -d 10de:); install pciutils and the NVIDIA driver, "
            "or pass --bus-id PCI:B:D:F",
            file=sys.stderr,
        )
        return 1
    config = args.config or Path(f"/etc/X11/xorg-gptnt-{args.display}.conf")
    text = xorg_conf(gpus, args.width, args.height)
    command = xorg_command(config, args.display)
    if args.dry_run:
        print(f"# {config}")
        print(text)
        print("# command: " + " ".join(command))
        print("# screens: " + " ".join(f"DISPLAY=:{args.display}.{i}" for i in range(len(gpus))))
        return 0
    if os.geteuid() != 0:
        print("error: Xorg needs root here; run with sudo (or use --dry-run)", file=sys.stderr)
        return 1
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text)
    os.execvp(command[0], command)  # replace this process: Xorg's signals and exit code are ours


if __name__ == "__main__":
    sys.exit(main())
