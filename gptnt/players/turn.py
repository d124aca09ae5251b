"""One player turn, the same for every policy (scripted or model).

    drain the inbox → observe (Defuser: the game's PNGs decoded, stored by content hash, and
    lettered with set-of-marks) → the policy decides → its action is resolved, once, against
    the marks of that observation → carried out (on the game, or to the partner) → the turn's
    record (``TurnEvent``).

The Player Service hands in only its ``Transport``: how to drain the inbox, to message the
partner, and (the Defuser only) to observe the game and act on it. The Expert's transport has
no route to the game at all.

Every issue of a turn (the policy's own, e.g. a model's parser warnings, and an action that
could not be resolved) is written into the record here, and the same issues are what the
player is told at the start of its next turn (``TurnInput.feedback``).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from gptnt.players.actions import InteractGame, MarkLocation, SendMessage, to_game_action
from gptnt.players.backends import CallRecord
from gptnt.players.clock import TOKENS_FIRST_TOKEN_S, TOKENS_SECONDS_PER_TOKEN, VirtualClock
from gptnt.players.config import PlayerConfig
from gptnt.players.conversation import AssistantMessage, ChatRequest, ImagePart, Part, TextPart
from gptnt.players.faults import failed_call
from gptnt.players.feedback import Issue
from gptnt.players.policy import Decision, Observation, Policy, TurnInput
from gptnt.players.prompts import ReflectedOutcome
from gptnt.protocol import BombState, GameAction, Mode, ModuleKind, Role, decode_png
from gptnt.records import (
    FailedCall,
    MessagePart,
    RecordedAction,
    ReflectionEvent,
    ShownImage,
    StoredMessage,
    Tokens,
    Transcript,
    TurnEvent,
    store_message,
    store_png,
)
from gptnt.vision import SetOfMarks, build_marks

__all__ = ["Player", "Sight", "Transport", "play_turn", "reflect"]


@dataclass(frozen=True)
class Sight:
    """What the game showed the Defuser: PNG images exactly as sent, and the bomb's clock."""

    frames: list[bytes]  # PNGs, oldest first
    mask: bytes | None  # PNG of the segmentation mask of the newest frame's view
    state: BombState | None
    seconds_remaining: float | None  # bomb clock, game seconds
    strikes: int


@dataclass(frozen=True)
class Transport:
    """How a turn reaches the world; everything else of the turn is ``play_turn``'s."""

    drain: Callable[[float | None], Awaitable[list[str]]]
    """The partner's messages since the last drain, oldest first (atomically: none lost); on
    the virtual clock, given the turn's start, only those delivered by then."""
    say: Callable[[str, float | None], Awaitable[None]]
    """Put a message in the partner's inbox (on the virtual clock: delivered at the game time
    given, the turn's dispatch)."""
    observe: Callable[[int], Awaitable[Sight]] | None = None
    """Defuser only: the newest frame, mask and state; given N > 0, N frames instead when the
    zoomed module blinks (Simon Says, Morse Code)."""
    act: Callable[[GameAction, float | None], Awaitable[str]] | None = None
    """Defuser only: carry out an ``/action`` (on the virtual clock: at the game time given,
    the turn's dispatch); the game's answer (or why it refused)."""


@dataclass
class Player:
    """A policy in its seat for one episode, and what it will be told on its next turn."""

    policy: Policy
    role: Role
    mode: Mode
    episode_dir: Path
    """Where the turn's frames and shown images are stored by content hash."""
    feedback: tuple[Issue, ...] = ()
    """The issues of the previous turn (``play_turn`` sets it)."""
    clock: VirtualClock | None = None
    """Async on the virtual clock: how long a turn takes in game time; ``None``: wall clock."""
    config: PlayerConfig | None = None
    """A model player's config (the ``tokens`` latency model reads its speeds)."""

    def dispatch_at(self, start: float, measured_s: float, decision: Decision) -> float:
        """The game time a turn begun at ``start`` dispatches (virtual clock only): a restored
        turn's as its record fixed it, else the latency model's."""
        assert self.clock is not None
        if decision.game_latency_s is not None:
            return self.clock.dispatch(start, decision.game_latency_s / self.clock.time_scale)
        first, per = TOKENS_FIRST_TOKEN_S, TOKENS_SECONDS_PER_TOKEN
        if self.config is not None:
            first, per = self.config.first_token_s, self.config.seconds_per_token
        call = decision.call
        latency = self.clock.latency.seconds_of(
            measured_s=measured_s, output_tokens=call.usage.output_tokens if call else 0,
            first_token_s=first, per_token_s=per,
        )  # fmt: skip
        return self.clock.dispatch(start, latency)

    sent: tuple[str, ...] = ()
    """The message hashes of the previous request (a model's; ``play_turn`` sets it)."""


async def play_turn(
    player: Player, turn: int, transport: Transport, *, at: float | None = None
) -> TurnEvent:
    """Play turn ``turn`` (0-based, per role) of ``player`` and return its record; ``at``: the
    game time it starts on the virtual clock (``None``: wall clock)."""
    policy = player.policy
    started = time.time()
    received = await transport.drain(at)
    g0 = time.monotonic()
    sight = await transport.observe(policy.sequence_frames) if transport.observe else None
    game_s = time.monotonic() - g0 if transport.observe else None
    observation, frames, mask = _look(sight, player) if sight else (None, [], None)
    marks = observation.marks if observation else None
    t0 = time.monotonic()
    decision = await policy.decide(
        TurnInput(role=player.role, turn=turn, mode=player.mode, messages=received,
                  observation=observation, feedback=player.feedback)
    )  # fmt: skip
    latency = time.monotonic() - t0 if decision.latency_s is None else decision.latency_s
    dispatch = None if at is None else player.dispatch_at(at, latency, decision)
    issues = list(decision.issues)
    action = decision.action
    recorded: RecordedAction | None = None
    result: str | None = None
    if isinstance(action, SendMessage):
        await transport.say(action.message, dispatch)
        recorded = RecordedAction(kind="send_message", message=action.message)
    elif isinstance(action, InteractGame):
        act = transport.act
        # The one place an action is resolved: against the marks this turn showed, read the
        # way this player names places (its own coordinate system and image size).
        wire = (
            to_game_action(action, policy.interaction, marks)
            if act is not None
            else Issue("action_not_allowed", action.kind)
        )
        if isinstance(wire, Issue):
            issues.append(wire)  # the turn is lost: recorded as the do-nothing it became
            recorded = RecordedAction(kind="do_nothing")
        elif act is not None:
            label = action.location.label if isinstance(action.location, MarkLocation) else None
            recorded = RecordedAction(kind="interact_game", name=action.action, label=label,
                                      x_pos=wire.x_pos, y_pos=wire.y_pos)  # fmt: skip
            g0 = time.monotonic()
            result = await act(wire, dispatch)
            game_s = (game_s or 0.0) + time.monotonic() - g0
    player.feedback = tuple(issues)
    tokens, cost, failed = _call_facts(decision.call)
    shown = [ShownImage(caption=a.caption, image=store_png(player.episode_dir, a.png, durable=False))
             for a in decision.shown]  # fmt: skip
    request = _transcript(player, decision.request) if decision.request else None
    return TurnEvent(
        episode_id=player.episode_dir.name,  # the writer's stamp, so it need not copy the event
        role=player.role, turn=turn, started_at=started, dispatched_at=time.time(),
        seconds_remaining=sight.seconds_remaining if sight else None,
        strikes=sight.strikes if sight else None, received=received, raw_output=decision.text,
        action=recorded or RecordedAction(kind=action.kind), result=result,
        warnings=[i.note for i in issues if not i.skips],
        errors=[i.note for i in issues if i.skips],
        frames=frames, mask=mask, focused=observation.kind if observation else None,
        shown=shown,
        tokens=tokens, cost_usd=cost, latency_s=latency, failed_call=failed,
        game_s=None if game_s is None else round(game_s, 6), game_time=at, dispatch_game_time=dispatch, restored=decision.restored,
        call_attempts=list(decision.call.attempts) if decision.call else [],
        request=request,
    )  # fmt: skip


async def reflect(player: Player, outcome: ReflectedOutcome) -> ReflectionEvent | None:
    """The reflection step of ``player`` after a game that ended ``outcome`` (a model whose
    config asks for it; ``None`` for any other player): its record."""
    from gptnt.players.model import ModelPolicy

    policy = getattr(player.policy, "inner", player.policy)  # a replay's restoring wrapper
    if not isinstance(policy, ModelPolicy) or not policy.config.reflection:
        return None
    started = time.time()
    answer = await policy.reflect(outcome)
    tokens, cost, failed = _call_facts(answer.call)
    return ReflectionEvent(
        episode_id=player.episode_dir.name, role=player.role, outcome=outcome,
        started_at=started, ended_at=time.time(), text=answer.text,
        finish_reason=answer.finish_reason, tokens=tokens, cost_usd=cost,
        latency_s=answer.call.latency_s, failed_call=failed,
        request=_transcript(player, answer.request),
    )  # fmt: skip


def _transcript(player: Player, request: ChatRequest) -> Transcript:
    """Store the request's messages (each once) and name them, after the leading messages it
    shares with the player's previous request. An image of the turn's observation (its
    ``shown``, stored under ``frames/``) is named by its hash; so is a manual page's, whose bytes are the
    manual's (``PlayerInfo.manual`` names it) and are not copied into every episode."""
    messages = [StoredMessage(role="system", parts=[MessagePart(text=request.system)])]
    for m in request.messages:
        if isinstance(m, AssistantMessage):
            parts = [MessagePart(text=t.text, thought=True) for t in m.thinking]
            parts.append(MessagePart(text=m.text))
            messages.append(StoredMessage(role="assistant", parts=parts))
        else:
            messages.append(StoredMessage(role="user", parts=[_part(p) for p in m.parts]))
    hashes = [store_message(player.episode_dir, m, durable=False) for m in messages]
    reuse = 0
    for before, now in zip(player.sent, hashes, strict=False):
        if before != now:
            break
        reuse += 1
    player.sent = tuple(hashes)
    return Transcript(reuse=reuse, messages=hashes[reuse:])


def _part(part: Part) -> MessagePart:
    if isinstance(part, TextPart):
        return MessagePart(text=part.text)
    if isinstance(part, ImagePart):
        return MessagePart(image=part.digest)
    return MessagePart(cache_point=True)


def _look(sight: Sight, player: Player) -> tuple[Observation, list[str], str | None]:
    """The policy's observation, and the content hashes of the frames and mask (stored)."""
    # Stored without an fsync: the episode's writer makes them durable at its finish.
    hashes = [store_png(player.episode_dir, png, durable=False) for png in sight.frames]
    mask_hash = store_png(player.episode_dir, sight.mask, durable=False) if sight.mask else None
    kind, marks = None, None
    if sight.mask is not None and mask_hash is not None:
        focused = sight.state.focused if sight.state else None
        kind = focused.name if focused else None
        if player.policy.interaction.method == "set-of-marks":  # a coordinates player has none
            frame = (hashes[-1], sight.frames[-1]) if sight.frames else None
            marks = _marks((mask_hash, sight.mask), frame, kind)
    privileged = sight.state if player.policy.privileged else None
    return Observation(tuple(sight.frames), marks, privileged, kind), hashes, mask_hash


_MARKS_KEPT = 256
_marks_seen: OrderedDict[tuple[str, str | None, str | None], SetOfMarks] = OrderedDict()


def _marks(
    mask: tuple[str, bytes], frame: tuple[str, bytes] | None, kind: ModuleKind | None
) -> SetOfMarks:
    """The set of marks of a mask and frame (PNGs, each given with its content hash) zoomed
    into ``kind``: built once per distinct picture and kept (the views of one bomb repeat all
    the time, and a set of marks depends on nothing else); the PNGs are decoded only then."""
    key = (mask[0], frame[0] if frame else None, kind)
    marks = _marks_seen.get(key)
    if marks is not None:
        _marks_seen.move_to_end(key)
        return marks
    marks = build_marks(decode_png(mask[1]), decode_png(frame[1]) if frame else None, kind)
    _marks_seen[key] = marks
    if len(_marks_seen) > _MARKS_KEPT:
        _marks_seen.popitem(last=False)
    return marks


_NO_TOKENS = Tokens()


def _call_facts(call: CallRecord | None) -> tuple[Tokens, float | None, FailedCall | None]:
    """A model call's tokens, cost (``None``: the model has no price) and failure, for the
    record (nothing for a scripted turn)."""
    if call is None:
        return _NO_TOKENS, 0.0, None
    usage = call.usage
    tokens = Tokens(input=usage.input_tokens, output=usage.output_tokens,
                    cache_read=usage.cache_read_tokens, cache_write=usage.cache_write_tokens)  # fmt: skip
    return tokens, call.cost_usd, failed_call(call)
