"""The Expert's manual: pages of text and images, generated from a ruleset or imported.

The default manual is typeset from the game's ``Ruleset`` (so a rule seed changes game, oracle
and manual together); a run may instead name a directory holding a manual built or imported
earlier (``gptnt manual build`` / ``gptnt manual import PDF``). Both have the official manual's
page structure (``STRUCTURE``: the 16 pages the paper's Expert read, numbered as in the PDF).
Every manual carries an ``identity`` string that episode records store to say which manual the
Expert read.

    from gptnt.manual import load_manual
    manual = load_manual("generated", rule_seed=1)
    for page in manual.pages:
        page.text, page.png(height=640)

Two more sources name where the manual comes from: ``official`` is the official manual the
user imported (``gptnt manual import PDF``: the folder ``$GPTNT_OFFICIAL_MANUAL``, default
``manual-official``), and ``paper`` — what the paper's suites default to — is that official
manual when it is there and the rule seed is 1 (the official manual's rules), else the
generated one, said in one line (``resolve_source``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from gptnt.errors import ConfigError
from gptnt.manual._import import import_pdf
from gptnt.manual._page import PLAYER_PAGE_HEIGHTS, Manual, ManualPage
from gptnt.manual._store import load, save
from gptnt.manual._structure import PAPER_PAGES, STRUCTURE, Part

if TYPE_CHECKING:
    from gptnt.rules.ruleset import Ruleset

__all__ = [
    "OFFICIAL",
    "OFFICIAL_ENV",
    "PAPER",
    "PAPER_PAGES",
    "PLAYER_PAGE_HEIGHTS",
    "STRUCTURE",
    "Manual",
    "ManualPage",
    "Part",
    "build_manual",
    "import_pdf",
    "load",
    "load_manual",
    "official_dir",
    "resolve_source",
    "save",
]

OFFICIAL = "official"
PAPER = "paper"
OFFICIAL_ENV = "GPTNT_OFFICIAL_MANUAL"
DEFAULT_OFFICIAL_DIR = "manual-official"  # ``gptnt manual import``'s default --out


def official_dir() -> Path:
    """Where the imported official manual is looked for."""
    return Path(os.environ.get(OFFICIAL_ENV) or DEFAULT_OFFICIAL_DIR)


def resolve_source(source: str | Path, rule_seed: int = 1) -> tuple[str, str | None]:
    """The manual source to play with, and a one-line notice when ``paper`` fell back to the
    generated manual. ``official`` without an import is a ``ConfigError`` naming the fix;
    a directory or ``generated`` is returned as it is."""
    name = str(source)
    if name not in (OFFICIAL, PAPER):
        return name, None
    folder = official_dir()
    have = (folder / "manual.json").is_file()
    if have and rule_seed == 1:
        return str(folder.resolve()), None
    why = (f"no imported official manual at {folder} (`gptnt manual import <pdf>`)" if not have
           else f"the official manual holds the rule seed 1 rules, not rule seed {rule_seed}")  # fmt: skip
    if name == OFFICIAL:
        raise ConfigError(f"manual=official: {why}; import it or use manual=generated")
    return "generated", (
        f"manual: the generated manual, not the official one the paper's Expert read: {why}"
    )


def build_manual(rule_seed: int = 1, *, pools: Path | None = None) -> Manual:
    """The generated manual of a rule seed, with the word pools in force (see
    ``gptnt.rules.ruleset``). Typeset once per ruleset identity and process."""
    from gptnt.rules.ruleset import ruleset

    rules = ruleset(rule_seed, pools=pools)
    return _typeset(rules.identity, rules)


_TYPESET: dict[str, Manual] = {}


def _typeset(identity: str, rules: Ruleset) -> Manual:
    from gptnt.manual._generate import generate

    if identity not in _TYPESET:
        if len(_TYPESET) >= 4:
            _TYPESET.pop(next(iter(_TYPESET)))
        _TYPESET[identity] = generate(rules)
    return _TYPESET[identity]


def load_manual(
    source: str | Path = "generated", rule_seed: int = 1, *, pools: Path | None = None
) -> Manual:
    """The manual a run gives its Expert.

    ``"generated"`` typesets the manual of ``rule_seed``; ``official`` and ``paper`` are
    resolved by ``resolve_source``; anything else is the path of a manual directory (its
    ``manual.json``). A generated directory must match ``rule_seed``: the
    Expert's rules and the game's must agree.
    """
    source, _ = resolve_source(source, rule_seed)
    if source == "generated":
        return build_manual(rule_seed, pools=pools)
    manual = load(Path(source))
    if manual.rule_seed is not None and manual.rule_seed != rule_seed:
        raise ConfigError(
            f"manual={source}: generated for rule seed {manual.rule_seed} but the game uses "
            f"rule seed {rule_seed}; build it with `gptnt manual build --rule-seed {rule_seed}`"
        )
    return manual
