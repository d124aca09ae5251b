"""Who sits in each seat: ``--defuser`` / ``--expert`` / ``--solo`` resolved to policies.

A player reference is, in this order of lookup:

1. a scripted policy name for the role (Defuser: ``oracle``, ``random``; Expert: ``oracle``,
   ``idle``, ``random``; alone with the bomb: ``oracle``, ``random``);
2. a player config name in ``configs/players/`` (``claude-sonnet-4-6``);
3. the path of a YAML player config (``my/player.yaml``);
4. a pydantic-ai model string (``anthropic:claude-sonnet-4-6``), with the paper's defaults.

The paper's single-agent ablations (§10.2) seat one model in the Defuser's role with both the
bomb and the manual (``solo``) or with the bomb alone (``solo-no-manual``); then there is no
Expert at all (``expert`` is ``None``), as in GPTNT, where only one Player Service runs.

A ``SeatChoice`` is plain data (pydantic, JSON-able): the CLI resolves it once, the manager
records it, and the Player Service, in its own process, rebuilds the same policy from it. The
manual's identity is taken when the choice is made and checked again when the policy is built,
so a record never names a manual other than the one the model read.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from gptnt.errors import PlayerConfigError, UnknownPlayerError, first_problem
from gptnt.players.config import PlayerConfig, known_configs, load_player_config
from gptnt.players.prompts import READERS, Seat
from gptnt.players.providers import BASE_URL_ENV, env_base_url
from gptnt.protocol import Mode, Role

if TYPE_CHECKING:
    from gptnt.manual import Manual, ManualPage
    from gptnt.players.policy import Policy

SCRIPTED_NAMES: dict[Role, tuple[str, ...]] = {
    "defuser": ("oracle", "random"),
    "expert": ("oracle", "idle", "random"),
}
"""Scripted policies per role (kept in step with ``scripted.SCRIPTED``; a test checks)."""

SOLO_SEATS: tuple[Seat, ...] = ("solo", "solo-no-manual")
SCRIPTED_SOLO = ("oracle", "random")
"""Scripted players that can sit alone with the bomb (the paper's random baseline of Table 11 is
the random one; the oracle has the rules in its head)."""

GENERATED = "generated"


class SeatChoice(BaseModel):
    """One role's player, resolved. ``ref`` is what the user typed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    role: Role
    ref: str
    kind: Literal["scripted", "model"]
    seat: Seat | None = None
    """The model's prompt seat (``defuser``, ``expert``, ``solo``, ``solo-no-manual``)."""
    config: PlayerConfig | None = None
    manual: str | None = None
    """Manual source for a seat that reads it: ``generated`` or a manual directory."""
    manual_identity: str | None = None
    """``Manual.identity`` of that manual, for the record."""
    rule_seed: int = 1

    @property
    def name(self) -> str:
        """How tables name the player: the policy name or the model config's name."""
        if self.config is not None:
            return self.config.name or self.config.model
        return self.ref

    @property
    def privileged(self) -> bool:
        """True when the player reads the true bomb state (the oracle Defuser)."""
        return self.kind == "scripted" and (self.role, self.ref) == ("defuser", "oracle")

    @property
    def label(self) -> str:
        """The player as tables print it; scripted players never pass for models."""
        if self.kind == "scripted":
            return f"{self.ref} ({'privileged, ' if self.privileged else ''}scripted)"
        variant = "" if self.seat in ("defuser", "expert") else f", {self.seat}"
        return f"{self.name} (model{variant})"


def resolve_seat(
    role: Role,
    ref: str,
    *,
    seat: Seat | None = None,
    manual: str = GENERATED,
    rule_seed: int = 1,
    configs_dir: Path | None = None,
    read_manual: bool = True,
    name: str | None = None,
    base_url: str | None = None,
) -> SeatChoice:
    """Resolve ``ref`` for ``role``; ``seat`` overrides the model's prompt seat (solo);
    ``base_url`` (``--<role>-base-url``) the model's endpoint. A model config that names no
    endpoint takes its SDK's variable (``OPENAI_BASE_URL``) here, once, so the record and every
    service see the same endpoint.

    Raises ``PlayerConfigError`` with one line naming the value (as ``name``, default the flag
    ``--<role>``) and every kind of choice.
    ``read_manual=False`` leaves a reader's manual for ``attach_manual`` (the preflight runs
    between the two, so a missing key is told before seconds of typesetting).
    """
    scripted = (ref in SCRIPTED_NAMES[role] and seat in (None, role)) or (
        role == "defuser" and ref in SCRIPTED_SOLO and seat in SOLO_SEATS
    )
    if scripted and base_url is not None:
        raise PlayerConfigError(
            f"--{role}-base-url: the {role} is {ref!r}, a scripted player that calls no model; "
            f"drop it or name a model with --{role}"
        )
    if scripted:
        solo = seat if seat in SOLO_SEATS else None
        return SeatChoice(role=role, ref=ref, kind="scripted", seat=solo, rule_seed=rule_seed)
    config = _model_config(role, ref, configs_dir, solo=seat not in (None, role), name=name)
    config = _with_endpoint(config, base_url, f"--{role}-base-url")
    seat = seat or role
    choice = SeatChoice(
        role=role, ref=ref, kind="model", seat=seat, config=config, rule_seed=rule_seed
    )
    return attach_manual(choice, manual) if read_manual else choice


def attach_manual(choice: SeatChoice, manual: str = GENERATED) -> SeatChoice:
    """``choice`` with the manual it reads, if its seat reads one (else unchanged)."""
    if choice.kind != "model" or choice.seat not in READERS or choice.manual is not None:
        return choice
    identity = _load_manual(manual, choice.rule_seed).identity
    return choice.model_copy(update={"manual": manual, "manual_identity": identity})


def resolve_lineup(
    defuser: str | None,
    expert: str | None,
    *,
    solo: str | None = None,
    manual: str = GENERATED,
    no_manual: bool = False,
    rule_seed: int = 1,
    read_manual: bool = True,
    names: Mapping[Role, str] | None = None,
    base_urls: Mapping[Role, str | None] | None = None,
) -> tuple[SeatChoice, SeatChoice | None]:
    """The episode's players from the CLI's flags: a pair, or one solo model and no Expert.
    ``names`` says how an error names a role's value when it did not come from ``--<role>``
    (e.g. ``file run.yaml: players.defuser``); ``base_urls`` are the ``--<role>-base-url``
    endpoints (a solo model's is the Defuser's)."""
    names = names or {}
    urls = base_urls or {}
    if solo is not None:
        if defuser is not None or expert is not None:
            raise PlayerConfigError(
                "--solo: one model holds both roles; drop --defuser and --expert"
            )
        seat: Seat = "solo-no-manual" if no_manual else "solo"
        if urls.get("expert"):
            raise PlayerConfigError("--expert-base-url: no Expert plays with --solo; drop it")
        choice = resolve_seat(
            "defuser", solo, seat=seat, manual=manual, rule_seed=rule_seed,
            read_manual=read_manual, base_url=urls.get("defuser"),
        )  # fmt: skip
        return choice, None
    if no_manual:
        raise PlayerConfigError(
            "--no-manual: only a --solo model plays without the manual (the paper's single-agent "
            "ablation); an Expert without it has nothing to read"
        )
    return (
        resolve_seat(
            "defuser",
            defuser or "oracle",
            manual=manual,
            rule_seed=rule_seed,
            read_manual=read_manual,
            name=names.get("defuser"),
            base_url=urls.get("defuser"),
        ),
        resolve_seat(
            "expert",
            expert or "oracle",
            manual=manual,
            rule_seed=rule_seed,
            read_manual=read_manual,
            name=names.get("expert"),
            base_url=urls.get("expert"),
        ),
    )


def build_policy(
    choice: SeatChoice,
    *,
    mode: Mode = "sync",
    seed: int = 0,
    step_seconds: float = 3.0,
    call_s: float | None = None,
) -> Policy:
    """The ``Policy`` of a resolved choice (a scripted policy or a ``ModelPolicy`` whose calls
    each get ``call_s`` wall seconds, the episode's budget for them)."""
    from gptnt.players.scripted import scripted_policy

    if choice.kind == "scripted":
        solo = choice.seat in SOLO_SEATS
        return scripted_policy(
            choice.role, choice.ref, seed=seed, solo=solo, rule_seed=choice.rule_seed
        )
    from gptnt.players.model import ModelPolicy

    assert choice.config is not None and choice.seat is not None
    pages: tuple[ManualPage, ...] = ()
    if choice.manual is not None:
        manual = _load_manual(choice.manual, choice.rule_seed)
        if choice.manual_identity and manual.identity != choice.manual_identity:
            raise PlayerConfigError(
                f"--manual {choice.manual}: it changed since the run started "
                f"({choice.manual_identity} → {manual.identity}); restart the run"
            )
        pages = tuple(manual.pages)
    return ModelPolicy(
        choice.config, choice.seat, mode=mode, manual=pages, step_seconds=step_seconds,
        call_s=call_s,
    )  # fmt: skip


def prompt_hash(
    choice: SeatChoice, *, mode: Mode = "sync", step_seconds: float = 3.0
) -> str | None:
    """The sha256 of the system prompt ``build_policy`` gives this choice (``None`` when
    scripted): the prompt's identity in the records."""
    if choice.kind == "scripted":
        return None
    import hashlib

    from gptnt.players.prompts import PromptSpec, system_prompt

    assert choice.config is not None and choice.seat is not None
    config = choice.config
    spec = PromptSpec(
        choice.seat, mode, config.interaction_spec, step_seconds, config.max_tokens, config.output
    )
    return hashlib.sha256(system_prompt(spec).encode()).hexdigest()


def _model_config(
    role: Role, ref: str, configs_dir: Path | None, *, solo: bool, name: str | None = None
) -> PlayerConfig:
    try:
        return load_player_config(ref, configs_dir)
    except UnknownPlayerError:
        pass  # a config that exists but is wrong raises its own error, naming the field
    configs = ", ".join(known_configs(configs_dir)) or "none"
    flag = name or ("--solo" if solo else f"--{role}")
    scripted = "" if solo else f"a scripted {role} ({', '.join(SCRIPTED_NAMES[role])}), "
    raise PlayerConfigError(
        f"{flag} {ref!r}: not {scripted}a player config ({configs}), a YAML file, or a "
        "'provider:model' string"
    )


def _with_endpoint(config: PlayerConfig, base_url: str | None, flag: str) -> PlayerConfig:
    """``config`` with ``base_url`` (checked as the config's own field), else its SDK's
    variable's endpoint when it names none."""
    url = base_url or (None if config.base_url else env_base_url(config))
    if url is None:
        return config
    try:
        return PlayerConfig.model_validate({**config.model_dump(), "base_url": url})
    except ValidationError as err:
        where = flag if base_url else f"${BASE_URL_ENV[config.provider]}"
        raise PlayerConfigError(f"{where}: {first_problem(err, whole='config')}") from None


def _load_manual(source: str, rule_seed: int) -> Manual:
    """The manual (``ConfigError`` naming ``manual=`` and the fix when it cannot be read)."""
    from gptnt.manual import load_manual

    return load_manual(source, rule_seed=rule_seed)
