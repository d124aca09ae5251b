"""The package, not the checkout: a built wheel installed into a fresh virtualenv, run from an
empty directory with no checkout on the path, plays a mission to ``solved``; its data (prompts,
configs, missions, manual) comes from inside the installed package, and ``services`` is not a
top-level name it installs.

The wheel's dependencies are not downloaded and unpacked again (that was most of this file's
minutes): the fresh virtualenv gets links to exactly the distributions the wheel's metadata
requires, transitively (markers and extras evaluated), from this interpreter's environment, and
nothing else (a namespace folder that several distributions share, such as ``google/``, is linked
whole). An undeclared import still fails there, as on a user's machine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


def _run(argv: list[str], cwd: Path, timeout: float, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{argv[:3]} exited {done.returncode}:\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the venv's bin folder, an empty working directory)."""
    base = tmp_path_factory.mktemp("wheel")
    # Built from a copy, so the build leaves nothing behind in the checkout.
    source = base / "source"
    skip = (".git", ".venv", "build", "dist", "runs", "*.egg-info", "__pycache__", ".*_cache")
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*skip))
    dist = base / "dist"
    _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(source)],
        cwd=base,
        timeout=300,
    )
    (wheel,) = dist.glob("gptnt-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"gptnt"}, tops
    venv = base / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=base, timeout=120)
    bin_dir = venv / "bin"
    _run([sys.executable, "-m", "pip", "--python", str(bin_dir / "python"), "install", "-q",
          "--no-deps", str(wheel)], cwd=base, timeout=300)  # fmt: skip
    site = _site_packages(bin_dir / "python")
    requires = Parser().parsestr(
        zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA")))
        .decode()
    ).get_all("Requires-Dist") or []  # fmt: skip
    for dist in _required(requires):
        _link(dist, site)
    work = base / "empty"
    work.mkdir()
    return bin_dir, work


def _site_packages(python: Path) -> Path:
    code = "import sysconfig; print(sysconfig.get_path('purelib'))"
    return Path(_run([str(python), "-c", code], cwd=python.parent, timeout=60).strip())


def _required(requires: list[str]) -> list[metadata.Distribution]:
    """The distributions of this environment that ``requires`` (a wheel's Requires-Dist, no
    extra asked for) needs, with everything they need in turn."""
    found: dict[str, metadata.Distribution] = {}
    asked: dict[str, set[str]] = {}  # distribution → extras already followed
    todo = [(text, {""}) for text in requires]
    while todo:
        text, extras = todo.pop()
        req = Requirement(text)
        if req.marker is not None and not any(req.marker.evaluate({"extra": e}) for e in extras):
            continue
        name = canonicalize_name(req.name)
        wanted = set(req.extras) | {""}
        if wanted <= asked.get(name, set()):
            continue
        asked.setdefault(name, set()).update(wanted)
        dist = found.setdefault(name, metadata.distribution(req.name))  # missing: fails here
        todo += [(sub, wanted) for sub in dist.requires or []]
    return list(found.values())


def _link(dist: metadata.Distribution, site: Path) -> None:
    """Link each top-level name the distribution installed (packages, modules, its
    .dist-info) into ``site``, as pip would have unpacked it there."""
    tops = {
        f.parts[0] for f in dist.files or [] if f.parts and f.parts[0] not in ("..", "__pycache__")
    }
    for top in tops:
        target = site / top
        source = Path(str(dist.locate_file(top)))
        if source.exists() and not target.exists():
            target.symlink_to(source, target_is_directory=source.is_dir())


def _env(work: Path) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    return {**keep, "PYTHONPATH": "", "PYTHONNOUSERSITE": "1", "GPTNT_OFFLINE": "1"}


def test_installed_wheel_plays_a_mission_to_solved(installed: tuple[Path, Path]) -> None:
    bin_dir, work = installed
    out = work / "runs"
    _run(
        [str(bin_dir / "gptnt"), "run", "--mission", "3", "--mode", "sync", "--out", str(out)],
        cwd=work,
        timeout=300,
        env=_env(work),
    )
    (summary,) = out.rglob("summary.json")
    assert json.loads(summary.read_text())["outcome"] == "solved"


def test_installed_wheel_reads_its_data_from_the_package(installed: tuple[Path, Path]) -> None:
    bin_dir, work = installed
    probe = (
        "import gptnt, gptnt.resources as r, gptnt.services.manager; "
        "print(gptnt.__file__); print(*(r.data_dir(f) for f in r.FOLDERS), sep='\\n')"
    )
    lines = _run(
        [str(bin_dir / "python"), "-c", probe], cwd=work, timeout=60, env=_env(work)
    ).split()
    package = Path(lines[0]).parent
    assert ROOT not in package.parents
    for folder in lines[1:]:
        assert Path(folder).is_relative_to(package / "_data"), folder
        assert any(Path(folder).iterdir()), folder
    listed = _run(
        [str(bin_dir / "gptnt"), "missions", "list", "--json"], cwd=work, timeout=60, env=_env(work)
    )
    assert len(json.loads(listed)) == 120


def test_services_is_not_a_top_level_package(installed: tuple[Path, Path]) -> None:
    bin_dir, work = installed
    done = subprocess.run(
        [str(bin_dir / "python"), "-c", "import services"],
        cwd=work,
        env=_env(work),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert "No module named 'services'" in done.stderr
