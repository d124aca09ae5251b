"""The episode record, versioned: what happened in one episode, in files analysis can read alone.

``events.jsonl`` holds one ``Event`` per line, appended as the episode runs; ``summary.json``
holds the ``Summary``, written last. Every event carries a ``kind`` literal, every file the
``schema_version`` it was written with. Times are labelled: ``*_at`` fields are wall-clock unix
seconds, ``game_time`` fields are seconds of game time elapsed on the bomb clock.

Version 2 adds what reproducing a result needs: every line names its ``episode_id``; the
episode's first line names the harness (version and commit); each player carries its resolved
settings and the hash of its system prompt; a Defuser turn names the module it was zoomed into
and the exact images a model was shown (``shown``, by content hash). Version 1 files still
read: every new field has a default, and ``read_events`` fills ``episode_id`` from the
directory name.

Version 3 adds which clock played an async episode and which episode it branched from:
``Conditions.clock`` (``wall``, the paper's, or ``virtual``) with its ``latency`` model; on the
virtual clock each turn's ``game_time`` (its start) and ``dispatch_game_time``, and the
manager's ``advance`` steps; the ``session_id`` the game was started with (it seeds the game's
own draws, so a replay sends the parent's); a counterfactual replay's ``parent`` (``Parent``:
the episode, the turn it forked at, what was replaced) on ``EpisodeStarted`` and ``Summary``,
and its turns before the fork marked ``restored``. Version 1 and 2 files still read: every new field has a
default (a wall clock, no parent).

Version 4 keeps what a model was asked: each model turn's ``request`` names every message of
the request it sent (system prompt, manual pages, history, the newest turn with its images),
each message stored once under ``messages/<sha256>.json`` and each image once under
``frames/``, so a long episode does not store its manual once per turn; and a cost is ``None``
when the model has no price (unknown, not free); the conditions name the players as they were
given (``defuser``, ``expert``: a policy, a config name or a YAML path, which ``pairing`` joins
ambiguously), so a replay starts them again. Version 1 to 3 files still read.

Version 5 adds what a timing breakdown and a leaderboard submission need: each turn's
``game_s`` (wall seconds of its game calls: observing and acting) and each manager game step's
``wall_s``; each model player's ``identity`` (its config's leaderboard block) and the
``tokens_per_image``, ``input_limit`` and ``execution_feedback`` it played with; the
``Summary``'s ``final_state``, the game's last ``/state`` document as the mod
sends it (camelCase), ``None`` when the game could not be asked. Version 1 to 4 files still
read: the new fields default to ``None`` (not recorded).

Version 5 also records the player knobs a model played with, so reports can group by them
(``PlayerSettings``: ``thinking_budget``, ``chat_template_kwargs``, ``output``,
``previous_frames``, ``keep_thinking``, ``reflection``; these default to the settings every
earlier episode played with), a model's thinking sent back in a transcript
(``MessagePart.thought``), and a model's answer to the reflection step after the game
(``ReflectionEvent``).

Version 6 makes a SANZARU episode (``gptnt.sanzaru``) a record of this schema, written by the
same ``EpisodeWriter`` and settled in the same ledger: its ``Summary`` carries ``sanzaru``
(``SanzaruResult``: the variant, instance, team and conditions, the simulator's outcome and the
paper's ending, rounds, bounces and the coded failure), ``mode: sync`` (rounds are turn-based),
``mission_id`` the variant, no ``players`` (the team is in ``sanzaru``) and no ``time_limit``
(no clock); its events are ``SanzaruStarted``, ``SanzaruTurn`` and ``SanzaruReferee``. Its
``episode_id`` is the episode directory's name, as for every episode. A SANZARU summary of the
format before (``kind: sanzaru_summary``, SANZARU's own versions 1 and 2) still reads as version
6 (``Summary._sanzaru_summary``). Version 1 to 5 files still read.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gptnt.protocol import Mode, Role

SCHEMA_VERSION = 6
READABLE_VERSIONS = (1, 2, 3, 4, 5, 6)
"""Record versions this harness reads."""

EpisodeOutcome = Literal["solved", "strikeout", "timeout", "crashed", "interrupted"]
"""How an episode ended: the bomb's end (``gptnt.protocol.GameOutcome``, a detonation being the
strike-out or time-out that caused it); ``crashed`` when the harness or its infrastructure
failed (a service, Redis, the model provider); ``interrupted`` when the user stopped the run
(SIGINT/SIGTERM). Neither of the last two is a result of the players: both are played again
and never counted."""


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Clock = Literal["wall", "virtual"]
"""What game time followed in async play: the wall clock (the paper's) or the latency model's
virtual clock (``gptnt.players.clock``). Sync play is paused during turns: always ``wall``."""


class PlayerSettings(_Record):
    """A model player's resolved settings: what was sent to the provider, minus secrets."""

    model: str  # provider:model-name
    base_url_host: str | None = None  # host[:port] of the endpoint, None for the provider default
    temperature: float | None  # None: none sent (OpenAI's reasoning models take none)
    max_tokens: int  # output token cap per call
    image_size: tuple[int, int]  # (width, height) in pixels of every image shown
    interaction: str  # set-of-marks or coordinates
    coordinates: str | None = None  # for coordinates: absolute, scaled or relative
    thinking: str | None = None  # off, minimal, or None for the provider default
    tokens_per_image: int | None = None  # tokens one image counts for when sizing a prompt (v5)
    input_limit: int | None = None  # the input window the context is truncated to (v5)
    execution_feedback: bool | None = None  # the model was told its output's problems (v5)
    thinking_budget: int | None = None  # cap on thinking tokens, where the provider takes one (v5)
    chat_template_kwargs: dict[str, bool | int | str] = Field(default_factory=dict)
    """vLLM: the chat-template arguments every request carried (v5)."""
    output: Literal["react", "tool"] = "react"  # the action as <action> text or a tool call (v5)
    previous_frames: int = 1  # earlier turns' last frames shown again to the Defuser (v5)
    keep_thinking: bool = False  # the provider's thinking sent back in the history (v5)
    reflection: bool = False  # asked to reflect after the game (v5)


class PlayerIdentity(_Record):
    """Who a model is, for a leaderboard: a player config's ``identity:`` block (v5)."""

    display_name: str = Field(min_length=1)  # the name a leaderboard shows
    organisation: str = Field(min_length=1)  # who develops the model
    is_os_model: bool  # open weights
    url: str | None = None  # the model's page, if it has one


class Harness(_Record):
    """Which harness wrote the records."""

    version: str  # the gptnt package version
    commit: str | None = None  # git commit of the checkout, None outside a git checkout
    dirty: bool = False  # the checkout had uncommitted changes


class PlayerInfo(_Record):
    """Who played a role. Scripted policies say so: they are not models."""

    role: Role
    policy: str  # e.g. "oracle", "random", "idle", or a model name
    kind: Literal["scripted", "model"]
    privileged: bool = False  # True when the policy reads the true bomb state (oracle Defuser)
    label: str  # how tables print it, e.g. "oracle (privileged, scripted)"
    seat: str | None = None  # a model's prompt seat: defuser, expert, solo, solo-no-manual
    manual: str | None = None  # identity of the manual the player read (Manual.identity)
    settings: PlayerSettings | None = None  # a model's resolved settings (v2)
    prompt_hash: str | None = None  # sha256 of a model's system prompt (v2)
    identity: PlayerIdentity | None = None  # a model config's identity block, if it has one (v5)


class Tokens(_Record):
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0


class RecordedAction(_Record):
    """What a turn did, after parsing: one of the three action kinds."""

    kind: Literal["interact_game", "send_message", "do_nothing"]
    name: str | None = None  # interact_game: click_release, hold, release, zoom_out, …
    label: str | None = None  # the set-of-marks label clicked, if any
    x_pos: float | None = None  # fraction of the frame width (click/hold)
    y_pos: float | None = None  # fraction of the frame height (click/hold)
    message: str | None = None  # send_message: the text sent


class Conditions(_Record):
    """Every setting that distinguishes an episode of a run, so analysis can group by it. The
    rule seed is one too, but it has its own field on ``EpisodeStarted`` and ``Summary``, the one
    place it is recorded."""

    suite: str | None = None  # the suite it was played in
    repeat: int = 0
    seed: int = 0  # the players' own randomness
    solo: bool = False  # one player alone with the bomb (paper §10.2)
    no_manual: bool = False  # solo without the manual
    manual: str = "generated"  # the manual source an Expert / solo model read
    time_factor: float = 1.0  # the mission's time limit scaled by this
    time_limit: int  # game seconds on the clock at the start, as played
    pairing: str  # "defuser/expert" or "solo:player"
    clock: Clock = "wall"  # async: the wall clock or the virtual clock (v3)
    latency: str | None = None  # the virtual clock's latency model, e.g. "fixed:5" (v3)
    defuser: str | None = (
        None  # the Defuser (the solo model) as named: a policy, config or path (v4)
    )
    expert: str | None = None  # the Expert as named; None when solo (v4)

    @model_validator(mode="before")
    @classmethod
    def _drop_copied_rule_seed(cls, data: Any) -> Any:
        """Version 2 records written before this carried a copy of the episode's ``rule_seed``
        here; they still read, and the copy is dropped (the episode's own field has it)."""
        if isinstance(data, dict) and "rule_seed" in data:
            return {k: v for k, v in data.items() if k != "rule_seed"}
        return data


class Parent(_Record):
    """The episode a counterfactual replay branched from (v3)."""

    episode_id: str
    path: str  # the parent's episode directory, relative to the branch's run directory
    fork_turn: int  # the parent's turn (0-based, in record order) played anew first
    replaced_role: Role | None = None  # whose output at the fork was replaced, if any
    message: str | None = None  # the message that replaced it


class EpisodeStarted(_Record):
    kind: Literal["episode_started"] = "episode_started"
    schema_version: int = SCHEMA_VERSION
    episode_id: str
    mission_id: str
    mode: Mode
    players: list[PlayerInfo]
    mission: str  # the MissionConfig as JSON (exactly what /startmission got)
    rule_seed: int = 1  # the rule seed game, manual and oracle shared (1 = the v1 manual)
    conditions: Conditions | None = None
    at: float
    harness: Harness | None = None  # None in version 1 records
    parent: Parent | None = None  # a counterfactual replay's parent (v3)
    session_id: str | None = None  # the sessionId /startmission got (the game's own draws, v3)


class ShownImage(_Record):
    """One image as the model received it (resized, marked), stored by content hash."""

    caption: str  # the text placed before it in the request
    image: str  # content hash of the PNG


ProviderFault = Literal["auth", "rate_limited", "server", "unreachable", "refused", "malformed"]
"""How a provider failed a call: refused the key (401/403), 429, 5xx, no answer at all, another
4xx, or an answer that cannot be a model's reply (HTML, a body that is not the API's JSON, no
choices). Every one is the provider's failure, never the model's (docs/inputs-and-payloads.md)."""


class FailedCall(_Record):
    """A model call of the turn that the provider failed (after its transport retries)."""

    fault: ProviderFault
    status: int | None = None  # the provider's HTTP status; None: no HTTP error status
    error: str  # the provider's message, with any credential removed
    attempts: list[int | None] = Field(default_factory=list)  # each attempt's status, in order


class MessagePart(_Record):
    """One part of a stored request message: text, an image by content hash, or a provider
    cache point. An observation's image is under ``frames/`` (it is a turn's ``shown``); a
    manual page's is the manual's (``PlayerInfo.manual`` names it) and is not copied."""

    text: str | None = None
    image: str | None = None
    cache_point: bool = False
    thought: bool = False  # ``text`` is the provider's own thinking, sent back (v5)


class StoredMessage(_Record):
    """One message of a model request as it was sent, stored once by the hash of its JSON."""

    role: Literal["system", "user", "assistant"]
    parts: list[MessagePart]


class Transcript(_Record):
    """The whole request of a model call, by reference: its messages in order (the system
    prompt first), each a ``StoredMessage`` hash. ``reuse`` leading messages are the same as
    the previous request of the same role (the history is append-only), so only the messages
    after them are listed; ``gptnt.records.requests`` resolves the chain."""

    reuse: int = 0
    messages: list[str] = Field(default_factory=list)


class TurnEvent(_Record):
    """One player turn: drain inbox → observe → policy → dispatch."""

    kind: Literal["turn"] = "turn"
    episode_id: str = ""  # stamped by the writer (v2)
    role: Role
    turn: int  # 0-based, per role
    started_at: float
    dispatched_at: float  # when the action reached the game or the partner's inbox
    seconds_remaining: float | None = None  # bomb clock when observed, game seconds (Defuser)
    strikes: int | None = None  # strikes on the bomb when observed (Defuser, v2)
    received: list[str] = Field(default_factory=list)  # partner messages drained this turn
    raw_output: str  # the policy's full text (a model's answer, a script's explanation)
    action: RecordedAction
    result: str | None = None  # the game's answer to an interaction
    warnings: list[str] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)
    frames: list[str] = Field(default_factory=list)  # content hashes of observed frames
    mask: str | None = None  # content hash of the segmentation mask
    focused: str | None = None  # module kind zoomed into when observed, None when zoomed out (v2)
    shown: list[ShownImage] = Field(default_factory=list)  # a model's exact images (v2)
    tokens: Tokens = Field(default_factory=Tokens)
    cost_usd: float | None = 0.0  # the model call's cost (0 for scripted players; None: no price)
    latency_s: float = 0.0  # wall seconds spent by the policy
    game_s: float | None = None  # wall seconds of the turn's game calls (observe, act); v5
    failed_call: FailedCall | None = None  # the model call failed: the provider's status
    game_time: float | None = None  # virtual clock: game seconds into play at the start (v3)
    dispatch_game_time: float | None = None  # virtual clock: game seconds at dispatch (v3)
    restored: bool = False  # a replay's turn before the fork, restored from its parent (v3)
    call_attempts: list[int | None] = Field(default_factory=list)
    """The status of every failed attempt of the turn's model call (``None``: no answer), also
    when a later attempt answered (a 429, its ``Retry-After`` waited, then the answer)."""
    request: Transcript | None = None  # what a model was sent (v4); None for a scripted player


class ReflectionEvent(_Record):
    """A model's answer to the reflection step, after a game that ended on the bomb (v5). It
    was asked once, with its history, the outcome and the questions as a last user turn; the
    answer went to no one and was not added to the history."""

    kind: Literal["reflection"] = "reflection"
    episode_id: str = ""  # stamped by the writer
    role: Role
    outcome: EpisodeOutcome  # the outcome it was told (solved, strikeout or timeout)
    started_at: float
    ended_at: float
    text: str  # the model's answer ("" when the call failed or no answer came)
    finish_reason: str | None = None
    tokens: Tokens = Field(default_factory=Tokens)
    cost_usd: float | None = 0.0  # None: the model has no price
    latency_s: float = 0.0  # wall seconds of the call
    failed_call: FailedCall | None = None  # the provider failed the call
    error: str | None = None  # the harness got no answer (the deadline passed): why
    request: Transcript | None = None  # what the model was sent


class GameStep(_Record):
    """The manager moved the game: start, pause, resume, or one sync time step."""

    kind: Literal["game_step"] = "game_step"
    episode_id: str = ""  # stamped by the writer (v2)
    what: Literal["start", "pause", "resume", "timestep", "advance"]
    at: float
    seconds_remaining: float | None = None
    strikes: int | None = None  # strikes on the bomb after the step (v2)
    game_time: float | None = None  # advance (virtual clock): the game time stepped to (v3)
    wall_s: float | None = None  # wall seconds the step's game call took (timestep, advance; v5)


class EpisodeEnded(_Record):
    kind: Literal["episode_ended"] = "episode_ended"
    episode_id: str = ""  # stamped by the writer (v2)
    outcome: EpisodeOutcome
    reason: str
    at: float


SanzaruRole = Literal["deaf", "mute", "blind", "solo"]
"""A SANZARU agent's seat (three split senses, or the solo ablation holding all); not KTANE's
``Role`` (Defuser, Expert)."""
SanzaruOutcome = Literal["defused", "timed_out", "wrong_action"]
"""How the simulator ended a SANZARU episode: the bomb defused, the rounds used up, or a wrong
cut, press or touch; not KTANE's ``GameOutcome``."""
SanzaruEnding = Literal["defused", "timed_out", "wrong_action", "never_acted"]
"""The paper's four mutually exclusive endings (its Figure 6): ``never_acted`` is a timeout in
which no action was ever attempted."""
SanzaruRecorded = SanzaruOutcome | Literal["crashed", "interrupted"]
"""A SANZARU episode's outcome as recorded: the simulator's, or the harness's ``crashed`` and
the user's ``interrupted`` (neither a result of the team)."""

SANZARU_OUTCOMES: dict[SanzaruRecorded, EpisodeOutcome] = {
    "defused": "solved", "wrong_action": "strikeout", "timed_out": "timeout",
    "crashed": "crashed", "interrupted": "interrupted",
}  # fmt: skip
"""A SANZARU outcome in every episode's vocabulary (``EpisodeOutcome``): a wrong action is the
detonation a strike-out causes, a spent round budget the timeout."""


class SanzaruStarted(_Record):
    """A SANZARU episode's first event: who wrote it and under which conditions (v6)."""

    kind: Literal["sanzaru_started"] = "sanzaru_started"
    schema_version: int = SCHEMA_VERSION
    episode_id: str = ""  # stamped by the writer
    attempt: int
    variant: str
    instance: int
    repeat: int
    team: str
    hints: str
    solo: bool
    thinking: str | None
    order: tuple[SanzaruRole, ...]
    harness: Harness
    settings: dict[str, Any] | None = None
    """A model team's provider settings as sent (``thinking``, a thinking budget where the
    provider takes one, the token cap); ``None`` for scripted teams."""
    at: float


class SanzaruTurn(_Record):
    """One SANZARU agent's turn: what it was shown and told, what it replied, the calls
    parsed (v6)."""

    kind: Literal["sanzaru_turn"] = "sanzaru_turn"
    episode_id: str = ""  # stamped by the writer
    round: int
    role: SanzaruRole
    view: str
    delivered: list[str]
    raw: str | None
    calls: list[dict[str, Any]]
    latency_s: float | None = None
    cost_usd: float | None = None  # None: a scripted agent, or a model without a price
    usage: dict[str, Any] | None = None
    failure: str | None = None


class SanzaruReferee(_Record):
    """The SANZARU referee's log of every call (delivered, bounced with its reason, acted) and
    every cut, the episode's last event (v6)."""

    kind: Literal["sanzaru_referee"] = "sanzaru_referee"
    episode_id: str = ""  # stamped by the writer
    log: list[dict[str, Any]]
    cuts: list[tuple[int, int, str]] = Field(default_factory=list)


class SanzaruResult(_Record):
    """What a SANZARU episode's ``Summary`` holds besides every episode's fields (v6)."""

    variant: str
    family: str
    subset: str
    instance: int
    repeat: int
    team: str
    hints: str  # none, weak, strong, playbook; none when solo
    solo: bool
    thinking: str | None
    order: tuple[SanzaruRole, ...] = ("deaf", "mute", "blind")
    outcome: SanzaruRecorded
    ending: SanzaruEnding | Literal["crashed", "interrupted"] | None = None
    rounds_used: int
    rounds: int
    bounces: int
    failure_mode: str | None = None
    failure_stage: str | None = None
    failure_flags: tuple[str, ...] = ()
    coded_by: str | None = None
    """Who decided ``failure_mode``: ``ground_truth``, ``heuristic`` or ``judge:<model>``."""
    candidates: tuple[str, ...] = ()
    """For a ``heuristic`` mode: the modes only the gestures' meaning can choose among (the
    judge's choices)."""
    heuristic_mode: str | None = None
    """The coder's guess, kept when a model judge (``gptnt sanzaru judge``) replaced it."""

    def label(self, *, hints: bool = True, thinking: bool = True) -> str:
        """The team as tables name it (``team_label``); ``hints``/``thinking`` False leave
        those out (a table with its own column for them)."""
        return team_label(self, hints=hints, thinking=thinking)


def team_label(
    s: SanzaruStarted | SanzaruResult, *, hints: bool = True, thinking: bool = True
) -> str:
    """A SANZARU team as tables name it, from its result or, when no summary reads, its first
    event: its name and each condition that is not the paper's default (solo, hints other than
    weak, a thinking budget, an order other than Deaf, Mute, Blind)."""
    parts = [s.team]
    if s.solo:
        parts.append("solo")
    elif hints and s.hints != "weak":
        parts.append(f"{s.hints} hints")
    if thinking and s.thinking:
        parts.append(f"thinking {s.thinking}")
    if s.order != ("deaf", "mute", "blind") and not s.solo:
        parts.append("order " + "".join(r[0] for r in s.order))
    return " · ".join(parts)


Event = Annotated[
    EpisodeStarted
    | TurnEvent
    | GameStep
    | EpisodeEnded
    | ReflectionEvent
    | SanzaruStarted
    | SanzaruTurn
    | SanzaruReferee,
    Field(discriminator="kind"),
]


class ModuleResult(_Record):
    name: str
    solved: bool


class Summary(_Record):
    """The episode's result; written last and atomically, so its presence means "finished"."""

    kind: Literal["summary"] = "summary"
    schema_version: int = SCHEMA_VERSION
    episode_id: str
    mission_id: str
    mode: Mode
    rule_seed: int = 1  # the rule seed game, manual and oracle shared (1 = the v1 manual)
    attempt: int = 1
    players: list[PlayerInfo] = Field(default_factory=list)  # none for SANZARU: see ``sanzaru``
    outcome: EpisodeOutcome
    reason: str = ""  # why it ended; for "crashed", what broke
    modules: list[ModuleResult] = Field(default_factory=list)
    strikes: int = 0
    time_limit: float | None = None  # game seconds on the clock at the start; None: no clock
    game_time_used: float | None = None  # game seconds elapsed at the end
    turns: dict[str, int] = Field(default_factory=dict)  # per role
    messages: dict[str, int] = Field(default_factory=dict)  # messages sent per role
    tokens: Tokens = Field(default_factory=Tokens)
    cost_usd: float | None = 0.0  # None: some model call had no price (unknown, not free)
    conditions: Conditions | None = None
    parent: Parent | None = None  # a counterfactual replay's parent (v3)
    final_state: dict[str, Any] | None = None  # the game's last /state document, camelCase (v5)
    sanzaru: SanzaruResult | None = None  # a SANZARU episode's own result (v6)
    started_at: float
    ended_at: float

    @model_validator(mode="before")
    @classmethod
    def _sanzaru_summary(cls, data: Any) -> Any:
        """A SANZARU summary of the format before version 6 (``kind: sanzaru_summary``, written
        as ``episodes/<key>-a<attempt>/summary.json``), read as a version 6 one: its id becomes
        the directory's name, its outcome the shared word, its error the reason."""
        if not isinstance(data, dict) or data.get("kind") != "sanzaru_summary":
            return data
        old = {k: v for k, v in data.items() if k not in ("kind", "schema_version")}
        outcome: Any = old.get("outcome")
        ending = old.get("ending") or outcome
        attempt = old.get("attempt", 1)
        return {
            "episode_id": f"{old.get('episode_id')}-a{attempt}", "mission_id": old.get("variant"),
            "mode": "sync", "attempt": attempt,
            "outcome": SANZARU_OUTCOMES.get(outcome, outcome),
            "reason": old.get("error") or ending or "", "cost_usd": old.get("cost_usd") or 0.0,
            "started_at": old.get("started_at", 0.0), "ended_at": old.get("ended_at", 0.0),
            "sanzaru": {k: v for k, v in old.items() if k in SanzaruResult.model_fields},
        }  # fmt: skip

    @model_validator(mode="after")
    def _one_outcome(self) -> Summary:
        if self.sanzaru is not None and SANZARU_OUTCOMES[self.sanzaru.outcome] != self.outcome:
            raise ValueError(
                f"outcome {self.outcome!r} is not SANZARU's {self.sanzaru.outcome!r} "
                f"(that is {SANZARU_OUTCOMES[self.sanzaru.outcome]!r})"
            )
        return self

    @property
    def modules_solved(self) -> int:
        return sum(m.solved for m in self.modules)
