"""Model player configs: which model, how to reach it, and how it sees the game.

A config is a YAML file in ``configs/players/`` (or anywhere, by path). ``load_player_config``
also accepts a bare pydantic-ai model string (``anthropic:claude-sonnet-4-6``), which gets the
defaults. Scripted policy names (``oracle``, ``random``, ``idle``) are not model configs; the
caller checks those first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from gptnt.bounded import IMAGE_SIDE, MAX_COUNT, MAX_SECONDS, read_yaml
from gptnt.endpoints import scrub_url, url_problem
from gptnt.errors import PlayerConfigError, UnknownPlayerError, UnreadableError, first_problem
from gptnt.players.actions import CoordinateSystem, Interaction, InteractionMethod, OutputFormat
from gptnt.players.clock import TOKENS_FIRST_TOKEN_S, TOKENS_SECONDS_PER_TOKEN
from gptnt.players.providers import provider_problem
from gptnt.records import PlayerIdentity
from gptnt.resources import configs_dir, player_config_dirs

CONFIGS_DIR = configs_dir() / "players"
"""The packaged ``configs/players/`` folder."""

Thinking = Literal["off", "minimal", "low", "medium", "high", "max"] | None
MAX_PREVIOUS_FRAMES = 16
"""The most earlier turns whose last frame a Defuser may be shown (the mod's ring buffer)."""


ImageSide = Annotated[int, Field(ge=IMAGE_SIDE[0], le=IMAGE_SIDE[1])]
"""Pixels of one side of the images a model is shown."""


class VllmServe(BaseModel):
    """How ``gptnt vllm`` starts vLLM's OpenAI-compatible server for an open model (paper H:
    BF16, no quantisation, 2 × H100 80GB). The port comes from the config's ``base_url``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    tensor_parallel_size: int = Field(2, ge=1, le=1024)
    """GPUs the model is split over."""
    dtype: str = "bfloat16"
    max_model_len: int | None = Field(None, gt=0, le=100 * MAX_COUNT)
    """Context length in tokens; default: the config's ``input_limit`` + ``max_tokens``."""
    max_images: int = Field(40, ge=1, le=10_000)
    """Images allowed in one request: the manual's pages plus a Simon/Morse turn's frames."""
    trust_remote_code: bool = False
    chat_template_kwargs: dict[str, bool | int | str] = Field(default_factory=dict)
    """Default chat-template arguments, e.g. ``enable_thinking: false`` (thinking off, H)."""
    gpu_memory_utilization: float | None = Field(None, gt=0, le=1)
    extra_args: tuple[str, ...] = ()
    """Further ``vllm serve`` arguments, passed as written."""


class PlayerConfig(BaseModel):
    """One model player. Defaults are the paper's settings (H.2): temperature 0.6, 1000 output
    tokens, set-of-marks, 640×480 images.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    name: str = ""
    """Short name for records and tables (defaults to the config file's stem)."""
    model: str
    """``provider:model-name``: anthropic, openai, google, vllm (built by us), or any other
    provider pydantic-ai knows (azure, bedrock, groq, ollama, openrouter, …: built by its own
    model-string inference, ``gptnt.players.providers``)."""
    base_url: str | None = Field(None, validate_default=True)
    """Endpoint for OpenAI-compatible servers (vLLM), or to override a provider's URL (Azure:
    the resource's endpoint). Unset: the provider's own variable (``OPENAI_BASE_URL``,
    ``AZURE_OPENAI_ENDPOINT``, …), else its default."""
    api_key_env: str | None = None
    """Environment variable holding the API key (never the key itself); unset: the
    provider's own variable (``OPENAI_API_KEY``, ``AZURE_OPENAI_API_KEY``, …)."""
    image_size: tuple[ImageSide, ImageSide] = (640, 480)
    """``(width, height)`` in pixels of every image the model is shown."""
    temperature: float | None = Field(0.6, ge=0.0, le=2.0)
    """Sampling temperature; ``null`` sends none (OpenAI's reasoning models reject one)."""
    max_tokens: int = Field(1000, gt=0, le=MAX_COUNT)
    """Output token cap per call."""
    thinking: Thinking = None
    """Extended reasoning: ``off``, or an effort level (``minimal`` … ``max``, pydantic-ai's
    unified setting, mapped by each provider); ``None`` leaves the provider default."""
    thinking_budget: int | None = Field(None, gt=0)
    """A cap on thinking tokens, sent where the provider takes one (Anthropic, Google: see
    ``gptnt.players.backends.THINKING_BUDGET_PROVIDERS``); elsewhere only ``thinking``'s effort
    level applies. ``None``: no cap."""
    chat_template_kwargs: dict[str, bool | int | str] = Field(default_factory=dict)
    """``vllm:`` only: chat-template arguments sent in every request (vLLM's
    ``chat_template_kwargs``), over the ``serve:`` defaults, which are sent too, so a server
    started elsewhere gets them. ``thinking`` adds ``enable_thinking`` (``false`` for ``off``,
    ``true`` for an effort level) unless set here (Qwen3's templates)."""
    execution_feedback: bool = True
    """Tell the model, at the start of its next turn, what went wrong with its previous response
    (``<execution-feedback>``, ``gptnt.players.feedback``): GPTNT's NOBF ("naughty output
    behaviour feedback", its ``enable_nobf_generation``, on by default). ``false``: the problems
    are still recorded in the turn's ``errors``, but the model is never told."""
    output: OutputFormat = "react"
    """How the action comes back: ``react``, the paper's text format (reasoning in
    ``<thoughts>``, the command as JSON in ``<action>``), or ``tool``, a typed tool call (one
    function tool per action kind, its arguments the command's ``data``; any text beside it is
    the reasoning). GPTNT's ``structured_output_mode`` (``null`` vs ``tool``). Both are read by
    the same rules (``gptnt.players.parsing``): an invalid action gets the same feedback and
    counts the same way; an answer in text with no tool call is ``no_action``."""
    previous_frames: int = Field(1, ge=0, le=MAX_PREVIOUS_FRAMES)
    """How many earlier turns' last frame the Defuser is shown again, unmarked, with the newest
    one (GPTNT's ``preserve_last_frame_for_n_turns``; 1 in its configs, and ours). Older
    turns' images are never resent: their place in the history says they are no longer
    shown. 0: only the newest frame (and a Simon/Morse sequence)."""
    keep_thinking: bool = False
    """Send the provider's own thinking (its reasoning parts, with their signatures) back in
    the history of later requests. ``false``: only the answer's text is kept, as before
    (GPTNT keeps whatever its history holds). Needs ``thinking`` on."""
    reflection: bool = False
    """After a game that ended on the bomb (solved, strike-out, time-out), ask the model one
    more time how it went (GPTNT's reflection step: the outcome in a sentence, then the
    questions of ``prompts/reflection*.md``, as the last user turn of its history). The answer
    is recorded (``ReflectionEvent``), never sent to the partner, and costs one call: its
    tokens and cost count in the episode's; it gets a turn's deadline. Off by default."""
    reflection_max_tokens: int = Field(5000, gt=0, le=MAX_COUNT)
    """Output token cap of the reflection call (GPTNT: 5000, over its 1000 for a turn)."""
    interaction: InteractionMethod = "set-of-marks"
    coordinates: CoordinateSystem = "absolute"
    """For ``interaction: coordinates``: absolute pixels, scaled 0–1000, or relative 0–1."""
    input_limit: int | None = Field(None, gt=0, le=100 * MAX_COUNT)
    """The model's input window in tokens; the context is truncated to fit. ``None``: never."""
    tokens_per_image: int = Field(500, ge=0, le=MAX_COUNT)
    """Estimated input tokens of one image at ``image_size`` (for truncation)."""
    turn_timeout_s: float = Field(180.0, gt=0, le=MAX_SECONDS)
    """Wall-clock deadline of one whole turn of this player (observe, model call with its
    transport retries, dispatch), in seconds: the one deadline the manager waits on, and the
    budget every other deadline of the turn is derived from (the model call gets what the
    turn's other waits leave: ``Budget`` in ``gptnt.services.manager``). A turn that overruns
    it ends the episode as crashed."""
    transport_retries: int = Field(3, ge=0, le=20)
    """Retries of a transient failure only (429, 5xx, no answer, a body that is not the API's),
    after the provider's ``Retry-After`` or a backoff, while the call's budget lasts."""
    first_token_s: float = Field(TOKENS_FIRST_TOKEN_S, gt=0, le=MAX_SECONDS)
    """Virtual clock, ``tokens`` latency model: seconds to the first output token
    (``gptnt.players.clock``)."""
    seconds_per_token: float = Field(TOKENS_SECONDS_PER_TOKEN, ge=0, le=60)
    """Virtual clock, ``tokens`` latency model: seconds per output token."""

    @model_validator(mode="before")
    @classmethod
    def _no_call_timeout(cls, data: object) -> object:
        if isinstance(data, dict) and "timeout_s" in data:
            raise ValueError(
                "timeout_s is no longer a setting: a model call's deadline is derived from "
                "turn_timeout_s (see `gptnt config show`); drop timeout_s"
            )
        return data

    identity: PlayerIdentity | None = None
    """Who the model is, for a leaderboard (``display_name``, ``organisation``,
    ``is_os_model``, ``url``): recorded with every episode; ``gptnt submission`` needs it."""
    serve: VllmServe | None = None
    """For ``vllm:`` models: how ``gptnt vllm`` starts the server."""

    @field_validator("model")
    @classmethod
    def _known_provider(cls, value: str) -> str:
        provider, sep, name = value.partition(":")
        if not sep or not name or not provider:
            raise ValueError(
                f"model {value!r} must be 'provider:name' (e.g. openai:gpt-5.2, azure:gpt-4o)"
            )
        problem = provider_problem(provider)
        if problem:
            raise ValueError(f"{value!r}: {problem}")
        return value

    @field_validator("base_url")
    @classmethod
    def _well_formed_url(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None:
            if str(info.data.get("model", "")).startswith("vllm:"):
                raise ValueError(
                    "required for vllm: models; the server's OpenAI-compatible URL "
                    "(e.g. http://127.0.0.1:8000/v1)"
                )
            return value
        problem = url_problem(value, ("http", "https"))
        if problem:
            raise ValueError(f"{scrub_url(value)!r} {problem} (e.g. http://127.0.0.1:8000/v1)")
        return value

    @model_validator(mode="after")
    def _template_kwargs_for_vllm(self) -> PlayerConfig:
        if self.chat_template_kwargs and self.provider != "vllm":
            raise ValueError(
                "chat_template_kwargs: only a vllm: model's chat template takes them; drop it"
            )
        return self

    @model_validator(mode="after")
    def _thinking_to_keep(self) -> PlayerConfig:
        if self.keep_thinking and self.thinking == "off":
            raise ValueError(
                "keep_thinking: thinking is off, so there is no thinking to keep; drop "
                "keep_thinking or set thinking to an effort level"
            )
        return self

    @property
    def template_kwargs(self) -> dict[str, bool | int | str]:
        """What a ``vllm:`` request carries as ``chat_template_kwargs`` (empty otherwise)."""
        if self.provider != "vllm":
            return {}
        merged = {**(self.serve.chat_template_kwargs if self.serve else {}),
                  **self.chat_template_kwargs}  # fmt: skip
        if self.thinking is not None:  # Qwen3's templates' switch, unless set explicitly
            merged.setdefault("enable_thinking", self.thinking != "off")
        return merged

    @property
    def provider(self) -> str:
        return self.model.partition(":")[0]

    @property
    def model_name(self) -> str:
        return self.model.partition(":")[2]

    @property
    def interaction_spec(self) -> Interaction:
        return Interaction(self.interaction, self.coordinates, self.image_size)


def config_dirs(configs_dir: Path | None = None) -> list[Path]:
    """Where a named config is looked up, first match wins: ``configs_dir`` if given, else the
    user's ``configs/players/`` (``gptnt.resources.user_dir``), then the packaged one."""
    return [configs_dir] if configs_dir is not None else player_config_dirs()


def known_configs(configs_dir: Path | None = None) -> list[str]:
    """The names of every config that ``load_player_config`` finds by name."""
    return sorted({p.stem for d in config_dirs(configs_dir) for p in d.glob("*.yaml")})


def load_player_config(ref: str, configs_dir: Path | None = None) -> PlayerConfig:
    """A config from a file path, a config name (the user's or ours), or a model string."""
    path = Path(ref)
    if path.suffix in (".yaml", ".yml") and path.is_file():
        return _from_file(path)
    for folder in config_dirs(configs_dir):
        named = folder / f"{ref}.yaml"
        if named.is_file():
            return _from_file(named)
    if ":" in ref:
        return _validated({"model": ref, "name": ref.partition(":")[2]}, ref)
    known = ", ".join(known_configs(configs_dir)) or "none"
    raise UnknownPlayerError(
        f"player {ref!r} is not a YAML path, a player config ({known}), or a "
        "'provider:model' string"
    )


def _from_file(path: Path) -> PlayerConfig:
    try:
        data = read_yaml(path) or {}
    except UnreadableError as err:
        raise PlayerConfigError(str(err)) from None
    if not isinstance(data, dict):
        raise PlayerConfigError(f"{path}: expected a mapping of player settings")
    data.setdefault("name", path.stem)
    return _validated(data, str(path))


def _validated(data: dict[str, object], where: str) -> PlayerConfig:
    try:
        return PlayerConfig.model_validate(data)
    except ValidationError as err:
        raise PlayerConfigError(f"{where}: {first_problem(err, whole='config')}") from None
