"""A loopback stand-in for a model provider: an OpenAI-compatible chat server that behaves like
a real one in the ways that break harnesses — slow answers and failures — for chaos runs.

Latency per call is drawn (seeded) from a heavy-tailed distribution like a real multimodal
model's with images and 1,000 output tokens: log-normal with a chosen median, clipped to
``[min, max]`` seconds. A fault schedule can answer some calls with an HTTP status (401, 429,
500, …) instead. Answers are valid player outputs, drawn from what the seat may do: waiting,
a message, or (for a Defuser) a click on a set-of-marks letter or a zoom out.

Run it by hand (``python scripts/model_standin.py --port 8601 --median 8``) and point a player
YAML at ``http://127.0.0.1:8601/defuser/v1`` (answers a Defuser may give), ``…/expert/v1``
or ``…/idle/v1`` (always waits);
or start it in-process with ``Standin.serve()`` (tests).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from gptnt.players.cassette import chat_completion, loopback_async


@dataclass
class Latency:
    """Log-normal wall seconds per call with this median, clipped; ``script`` overrides the
    first calls with fixed values."""

    median_s: float = 8.0
    sigma: float = 0.7  # log-space spread: 0.7 puts the 95th percentile near 3 × the median
    min_s: float = 1.0
    max_s: float = 40.0
    script: list[float] = field(default_factory=list)

    def draw(self, rng: random.Random, call: int) -> float:
        if call < len(self.script):
            return self.script[call]
        value = math.exp(rng.gauss(math.log(self.median_s), self.sigma))
        return min(self.max_s, max(self.min_s, value))


_LETTERS = [chr(c) for c in range(ord("A"), ord("I"))]


def _action(rng: random.Random, seat: str) -> str:
    """One valid answer for ``seat``: ``defuser``, ``expert``, or ``idle`` (always waits)."""
    choices = {"idle": ["wait"], "expert": ["wait", "message"]}.get(
        seat, ["wait", "message", "click", "click", "click", "zoom"]
    )
    pick = rng.choice(choices)
    if pick == "wait":
        result = {"kind": "do_nothing", "data": {}}
    elif pick == "message":
        result = {"kind": "send_message", "data": {"message": "What do you see now?"}}
    elif pick == "zoom":
        result = {"kind": "interact_game", "data": {"action": "zoom_out"}}
    else:
        location = rng.choice(_LETTERS)
        result = {
            "kind": "interact_game",
            "data": {"action": "click_release", "location": location},
        }
    return f"<thoughts>stand-in: {pick}</thoughts><action>{json.dumps({'result': result})}</action>"


@dataclass
class Standin:
    """The server's behaviour and what it saw. ``faults`` maps a call number (0-based) to the
    HTTP status answered instead; ``fail_from`` answers ``fail_status`` from that call on."""

    latency: Latency = field(default_factory=Latency)
    seed: int = 0
    faults: dict[int, int] = field(default_factory=dict)
    fail_from: int | None = None
    fail_status: int = 500
    calls: int = 0
    latencies: list[float] = field(default_factory=list)
    url: str = ""

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    async def completions(self, request: Request) -> JSONResponse:
        call = self.calls
        self.calls += 1
        delay = self.latency.draw(self._rng, call)
        self.latencies.append(delay)
        await asyncio.sleep(delay)
        status = self.faults.get(call)
        if status is None and self.fail_from is not None and call >= self.fail_from:
            status = self.fail_status
        if status is not None:
            error = {"message": f"stand-in fault {status}", "type": "standin", "code": status}
            return JSONResponse({"error": error}, status_code=status)
        seat = request.path_params.get("seat", "expert")
        return JSONResponse(
            chat_completion(
                _action(self._rng, seat),
                prompt=1000,
                completion=40,
                model="standin",
                call_id="standin",
            )
        )

    async def models(self, _: Request) -> JSONResponse:
        return JSONResponse({"object": "list", "data": [{"id": "standin", "object": "model"}]})

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/{seat}/v1/chat/completions", self.completions, methods=["POST"]),
                Route("/{seat}/v1/models", self.models, methods=["GET"]),
            ]
        )

    async def serve(self, port: int = 0) -> AsyncIterator[Standin]:
        """Serve on loopback for the duration of the iteration (``url``: the root; a player's
        ``base_url`` is ``url + "/defuser/v1"`` or ``url + "/expert/v1"``)."""
        async with loopback_async(self.app(), port=port, log_level="critical") as url:
            self.url = url
            yield self


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--median", type=float, default=8.0, help="median wall seconds per call")
    parser.add_argument("--sigma", type=float, default=0.7)
    parser.add_argument("--min", type=float, default=1.0)
    parser.add_argument("--max", type=float, default=40.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fail-from", type=int, default=None, help="fail every call from this")
    parser.add_argument("--fail-status", type=int, default=500)
    args = parser.parse_args()
    standin = Standin(
        Latency(args.median, args.sigma, args.min, args.max),
        seed=args.seed,
        fail_from=args.fail_from,
        fail_status=args.fail_status,
    )

    async def run() -> None:
        async for _ in standin.serve(args.port):
            await asyncio.Event().wait()

    asyncio.run(run())


if __name__ == "__main__":
    main()
