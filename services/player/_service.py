"""The Player Service: one role's seat in one game, as transport only.

Each turn is ``gptnt.players.turn.play_turn``: drain the inbox → observe (Defuser only) → the
policy decides → the action is resolved and carried out → the turn's record, whose frames are
already stored in the episode directory by content hash. This service gives that turn its
transport (the inbox, the partner's inbox, and for the Defuser the game service with a deadline
on every call), serves it over the bus, and beats its heartbeat. The Expert's service has no game
client at all, and its Redis user could not reach the game if it tried.
"""

from __future__ import annotations

import asyncio
import base64

import redis.asyncio as aioredis

from gptnt.errors import RemoteError
from gptnt.players.replay import Restoring
from gptnt.players.seats import build_policy
from gptnt.players.turn import Player, Sight, Transport, play_turn, reflect
from gptnt.protocol import GameAction, Role
from gptnt.services.bus import GameKeys, HeartbeatSender, Inbox, RpcClient, RpcServer
from gptnt.services.game import api as game_api
from gptnt.services.player import api

PARTNER: dict[Role, Role] = {"defuser": "expert", "expert": "defuser"}


def seat_player(config: api.PlayerServiceConfig) -> Player:
    """The player of a seat: its policy (scripted, or a model with the manual the manager
    recorded; a replay's branch restores its parent's turns first) in its seat."""
    role = config.seat.role
    policy = build_policy(
        config.seat, mode=config.mode, seed=config.seed, step_seconds=config.step_seconds,
        call_s=config.call_s,
    )  # fmt: skip
    if config.restore is not None:  # a counterfactual replay's branch
        restore = config.restore
        policy = Restoring(policy, restore.recorded(role), restore.message)
    return Player(
        policy, role, config.mode, config.episode_dir, clock=config.clock,
        config=config.seat.config,
    )  # fmt: skip


class PlayerService:
    """One seat's service, built from its own config section (``api.PlayerServiceConfig``):
    the policy of the seat (scripted, or a model with the manual the manager recorded)."""

    def __init__(
        self, redis: aioredis.Redis, keys: GameKeys, config: api.PlayerServiceConfig
    ) -> None:
        role = config.seat.role
        self.role = role
        self._redis = redis
        self._keys = keys
        self._player = seat_player(config)
        self._inbox = Inbox(redis, keys, role)
        # Only the Defuser gets a route to the game.
        self._game = (
            _GameLink(RpcClient(redis, keys, "defuser"), config.game_call_s)
            if role == "defuser"
            else None
        )
        self._heartbeat = HeartbeatSender(redis, keys, role)
        self._stop = asyncio.Event()
        self._turns = 0

    async def run(self) -> None:
        server = RpcServer(self._redis, self._keys, self.role)
        server.method(api.TURN, api.TurnRequest, self.turn)
        server.method(api.REFLECT, api.ReflectRequest, self.reflect)
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
        game = self._game
        if game is not None:
            game.status, game.png_bytes = None, 0
        transport = Transport(
            drain=self._drain,
            say=self._say,
            observe=game.observe if game else None,
            act=game.act if game else None,
        )
        event = await play_turn(self._player, request.turn, transport, at=request.at)
        self._turns += 1
        self._heartbeat.state = "ready"
        return api.TurnReply(
            event=event,
            png_bytes=game.png_bytes if game else 0,
            status=game.status if game else None,
        )

    async def reflect(self, request: api.ReflectRequest) -> api.ReflectReply:
        self._heartbeat.state = "turn"
        event = await reflect(self._player, request.outcome)
        self._heartbeat.state = "ready"
        return api.ReflectReply(event=event)

    async def _drain(self, until: float | None) -> list[str]:
        return [m.text for m in await self._inbox.drain(until=until)]

    async def _say(self, text: str, at: float | None) -> None:
        await self._inbox.send(PARTNER[self.role], text, at=at)


class _GameLink:
    """The Defuser's calls to the game service, each with its deadline; ``status`` is the game
    as last reported this turn (after the action, else at the observation)."""

    def __init__(self, rpc: RpcClient, deadline_s: float) -> None:
        self._rpc = rpc
        self._deadline_s = deadline_s
        self.status: game_api.Status | None = None
        self.png_bytes = 0  # observation bytes received this turn (for the benchmark)

    async def observe(self, sequence_frames: int) -> Sight:
        # Simon Says and Morse Code blink: the recent frames come in the same observation (the
        # game service sees which module is zoomed into).
        request = game_api.ObserveRequest(
            frames=1, mask=True, state=True,
            sequence_frames=sequence_frames if sequence_frames > 1 else 0,
        )  # fmt: skip
        obs = await self._rpc.call(
            "game", game_api.OBSERVE, request, game_api.ObserveReply, timeout_s=self._deadline_s
        )
        self.status, self.png_bytes = obs.status, obs.png_bytes
        return Sight(
            frames=[base64.b64decode(f) for f in obs.frames],
            mask=base64.b64decode(obs.mask) if obs.mask else None,
            state=obs.state,
            seconds_remaining=obs.status.seconds_remaining,
            strikes=obs.status.strikes,
        )

    async def act(self, action: GameAction, at: float | None) -> str:
        try:
            reply = await self._rpc.call(
                "game", game_api.ACT, game_api.ActRequest(action=action, at=at), game_api.ActReply,
                timeout_s=self._deadline_s,
            )  # fmt: skip
        except RemoteError as err:
            if err.kind != game_api.REFUSED:  # the game failed, not the action: not the model's
                raise
            # The game refused (e.g. the bomb just ended): a fact of the turn, not a crash.
            return f"refused: {err}"
        self.status = reply.status
        return reply.result
