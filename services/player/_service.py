"""The Player Service: one role's seat in one game.

Each turn: drain the inbox (atomically) → observe (Defuser only, through the game service) →
ask the policy → dispatch the action (to the game, or to the partner's inbox) → return the
turn's record, whose frames are already stored in the episode directory by content hash.
The Expert's service has no game client at all, and its Redis user could not reach the game
if it tried.
"""

from __future__ import annotations

import asyncio
import base64
import io
import os
import re
import time
from pathlib import Path

import numpy as np
import redis.asyncio as aioredis
from PIL import Image

from gptnt.errors import RemoteError
from gptnt.players.actions import (
    InteractGame,
    Interaction,
    MarkLocation,
    SendMessage,
    to_game_action,
)
from gptnt.players.backends import MALFORMED, CallRecord
from gptnt.players.feedback import Issue
from gptnt.players.policy import Observation, Policy, TurnInput
from gptnt.players.seats import SeatChoice, build_policy
from gptnt.protocol import GameAction, Mode
from gptnt.records import (
    FailedCall,
    ProviderFault,
    RecordedAction,
    ShownImage,
    Tokens,
    TurnEvent,
    store_png,
)
from gptnt.vision import build_marks
from services.bus import GameKeys, HeartbeatSender, Inbox, Role, RpcClient, RpcServer
from services.game import api as game_api
from services.player import api

PARTNER: dict[Role, Role] = {"defuser": "expert", "expert": "defuser"}
GAME_CALL_S = 10.0  # wall-clock deadline of one call to the game service


# Anything shaped like a credential in a provider's message: "sk-…", "Bearer …", "key=…".
_SECRETS = re.compile(r"(sk-[A-Za-z0-9*_\-]{4,}|Bearer\s+\S+|(?<=key=)[^&\s\"']+)")


def failed_call(call: CallRecord | None, policy: Policy) -> FailedCall | None:
    """The record of a model call the provider failed, never holding the key."""
    if call is None or call.failure != "provider_error":
        return None
    error = call.error or "no message"
    config = getattr(policy, "config", None)
    key = os.environ.get(config.api_key_env, "") if config and config.api_key_env else ""
    if len(key) >= 4:
        error = error.replace(key, "[key]")
    return FailedCall(
        fault=_fault(call), status=call.status, error=_SECRETS.sub("[key]", error)[:300]
    )


def _fault(call: CallRecord) -> ProviderFault:
    status = call.status
    if (call.error or "").startswith(MALFORMED):
        return "malformed"
    if status is None:
        return "unreachable"
    if status in (401, 403):
        return "auth"
    if status == 429:
        return "rate_limited"
    return "server" if status >= 500 else "refused"


def make_policy(choice: SeatChoice, *, mode: Mode, seed: int, step_seconds: float = 3.0) -> Policy:
    """The policy of a resolved seat (``gptnt.players.seats``: scripted, or a model, possibly
    solo, with the manual the manager recorded); ``step_seconds``: game seconds per sync step."""
    return build_policy(choice, mode=mode, seed=seed, step_seconds=step_seconds)  # type: ignore[return-value]


def _decode_png(data: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(data)) as image:
        return np.asarray(image.convert("RGB"))


class PlayerService:
    def __init__(
        self,
        redis: aioredis.Redis,
        keys: GameKeys,
        role: Role,
        policy: Policy,
        *,
        episode_dir: Path,
        mode: Mode,
    ) -> None:
        self.role = role
        self._redis = redis
        self._keys = keys
        self._policy = policy
        self._dir = episode_dir
        self._mode = mode
        self._inbox = Inbox(redis, keys, role)
        # Only the Defuser gets a route to the game.
        self._game = RpcClient(redis, keys, "defuser") if role == "defuser" else None
        self._heartbeat = HeartbeatSender(redis, keys, role)
        self._stop = asyncio.Event()
        self._turns = 0

    async def run(self) -> None:
        server = RpcServer(self._redis, self._keys, self.role)
        server.method(api.TURN, api.TurnRequest, self.turn)
        server.method(api.STOP, api.StopRequest, self.stop)
        self._heartbeat.state = "ready"
        tasks = [
            asyncio.create_task(server.serve(self._stop)),
            asyncio.create_task(self._heartbeat.run(self._stop)),
        ]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        self._stop.set()  # one of them failed: stop the other
        await asyncio.gather(*tasks)

    async def stop(self, request: api.StopRequest) -> api.Stopped:
        self._heartbeat.state = "stopping"
        self._stop.set()
        return api.Stopped(turns=self._turns)

    async def turn(self, request: api.TurnRequest) -> api.TurnReply:
        self._heartbeat.state = "turn"
        started = time.time()
        received = [m.text for m in await self._inbox.drain()]
        observation, frames, mask, png_bytes, seconds = None, [], None, 0, None
        status: game_api.Status | None = None
        focused: str | None = None
        strikes: int | None = None
        errors: list[str] = []
        if self._game is not None:
            observation, frames, mask, png_bytes, seconds, strikes, status = await self._observe()
            if observation.marks is not None:
                focused = observation.marks.kind
        t0 = time.monotonic()
        decision = await self._policy.decide(
            TurnInput(role=self.role, turn=request.turn, mode=self._mode, messages=received,
                      observation=observation)
        )  # fmt: skip
        latency = time.monotonic() - t0
        action = decision.action
        recorded = RecordedAction(kind=action.kind)
        result: str | None = None
        if isinstance(action, SendMessage):
            await self._inbox.send(PARTNER[self.role], action.message)
            recorded = RecordedAction(kind="send_message", message=action.message)
        elif isinstance(action, InteractGame):
            result, recorded, issue, acted = await self._interact(
                action, observation, decision.game_action
            )
            status = acted or status
            if issue is not None:
                errors.append(f"{issue.code}: {issue.detail}")
        self._turns += 1
        self._heartbeat.state = "ready"
        tokens, cost = Tokens(), 0.0
        if decision.call is not None:  # a model player's call this turn
            usage = decision.call.usage
            tokens = Tokens(
                input=usage.input_tokens,
                output=usage.output_tokens,
                cache_read=usage.cache_read_tokens,
                cache_write=usage.cache_write_tokens,
            )
            cost = decision.call.cost_usd or 0.0
        shown = [
            ShownImage(caption=a.caption, image=store_png(self._dir, a.png)) for a in decision.shown
        ]
        warnings = list(decision.warnings)
        errors = [*decision.errors, *errors]
        event = TurnEvent(
            role=self.role, turn=request.turn, started_at=started, dispatched_at=time.time(),
            seconds_remaining=seconds, strikes=strikes, received=received,
            raw_output=decision.text, action=recorded, result=result, warnings=warnings, errors=errors, frames=frames,
            mask=mask, focused=focused, shown=shown, tokens=tokens, cost_usd=cost,
            latency_s=latency,
            failed_call=failed_call(decision.call, self._policy),
        )  # fmt: skip
        return api.TurnReply(event=event, png_bytes=png_bytes, status=status)

    async def _observe(
        self,
    ) -> tuple[Observation, list[str], str | None, int, float | None, int, game_api.Status]:
        assert self._game is not None
        # Simon Says and Morse Code blink: a model player gets the recent frames too, in the
        # same observation (the game service sees which module is zoomed into).
        wanted = getattr(self._policy, "sequence_frames", 1)
        request = game_api.ObserveRequest(
            frames=1, mask=True, state=True, sequence_frames=wanted if wanted > 1 else 0
        )
        obs = await self._game.call(
            "game", game_api.OBSERVE, request, game_api.Observation, timeout_s=GAME_CALL_S
        )
        pngs = [base64.b64decode(f) for f in obs.frames]
        mask_png = base64.b64decode(obs.mask) if obs.mask else None
        hashes = [store_png(self._dir, png) for png in pngs]
        mask_hash = store_png(self._dir, mask_png) if mask_png else None
        frames = [_decode_png(png) for png in pngs]
        marks = None
        if mask_png is not None and frames:
            focused = obs.state.focused if obs.state else None
            marks = build_marks(
                _decode_png(mask_png), frames[-1], focused.name if focused else None
            )
        privileged = obs.state if self._policy.privileged else None
        seconds = obs.status.seconds_remaining
        observation = Observation(frames, marks, privileged)
        status = obs.status
        return observation, hashes, mask_hash, obs.png_bytes, seconds, status.strikes, status

    async def _interact(
        self, action: InteractGame, observation: Observation | None, resolved: GameAction | None
    ) -> tuple[str | None, RecordedAction, Issue | None, game_api.Status | None]:
        """Carry out an interaction: its result, its record, the issue that stopped it, and
        the game's status after it (``None`` if nothing reached the game)."""
        assert self._game is not None
        marks = observation.marks if observation else None
        label = action.location.label if isinstance(action.location, MarkLocation) else None
        # A model player resolved its own location (marks or coordinates, at its image size);
        # a scripted one names marks, resolved here.
        wire = resolved or to_game_action(action, Interaction(), marks)
        if isinstance(wire, Issue):
            return (
                None, RecordedAction(kind="interact_game", name=action.action, label=label), wire,
                None,
            )  # fmt: skip
        recorded = RecordedAction(
            kind="interact_game",
            name=action.action,
            label=label,
            x_pos=wire.x_pos,
            y_pos=wire.y_pos,
        )
        try:
            reply = await self._game.call(
                "game", game_api.ACT, game_api.ActRequest(action=wire), game_api.ActReply,
                timeout_s=GAME_CALL_S,
            )  # fmt: skip
        except RemoteError as err:
            # The game refused (e.g. the bomb just ended): a fact of the turn, not a crash.
            return f"refused: {err}", recorded, None, None
        return reply.result, recorded, None, reply.status
