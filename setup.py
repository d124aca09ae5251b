"""What the wheel installs; the project's metadata is in pyproject.toml.

The repository keeps the project's layout: services/, prompts/, configs/, missions/ and manual/
sit at the top level beside gptnt/. Installed, they all live inside the one `gptnt` package:
services/ is the subpackage `gptnt.services`, and each data folder is package data under
`gptnt/_data/<folder>/`, read through `gptnt.resources` (which reads the checkout's folders
directly in an editable install).
"""

from pathlib import Path

from setuptools import find_packages, setup

DATA_FOLDERS = ("prompts", "configs", "missions", "manual")


def _tree(prefix: str, folder: str) -> list[str]:
    return [prefix, *(f"{prefix}.{name}" for name in find_packages(folder))]


packages = _tree("gptnt", "gptnt") + _tree("gptnt.services", "services")
package_dir = {"gptnt": "gptnt", "gptnt.services": "services"}
package_data = {"gptnt": ["**/*.ttf", "**/*.json", "**/*.md"]}
for folder in DATA_FOLDERS:
    for sub in [Path(folder), *sorted(p for p in Path(folder).rglob("*") if p.is_dir())]:
        name = "gptnt._data." + ".".join(sub.parts)
        packages.append(name)
        package_dir[name] = sub.as_posix()
        package_data[name] = ["*"]

setup(packages=packages, package_dir=package_dir, package_data=package_data)
