"""``gptnt sim serve``, ``gptnt sim record`` and ``gptnt stub serve``: the game over HTTP.

The simulator and the recorded-game stub both serve the mod's protocol on loopback by default;
``sim record`` drives a short scripted session (in-process, or against ``--url``) and stores
every exchange for the stub to replay.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gptnt.bounded import IMAGE_SIDE, MAX_COUNT, MAX_PORT, MAX_RULE_SEED, MAX_SECONDS, MAX_SEED

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from gptnt.protocol import MissionConfig
    from gptnt.sim.recording import Exchange

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8085

stub_app = typer.Typer(
    name="stub",
    help="The recorded-game stub: replay a recorded protocol session over HTTP.",
    no_args_is_help=True,
)

Host = Annotated[str, typer.Option(help="Interface to listen on (loopback by default).")]
Port = Annotated[int, typer.Option(min=1, max=MAX_PORT, help="TCP port to listen on.")]
Width = Annotated[
    int, typer.Option(min=IMAGE_SIDE[0], max=IMAGE_SIDE[1], help="Frame width in pixels.")
]
Height = Annotated[
    int, typer.Option(min=IMAGE_SIDE[0], max=IMAGE_SIDE[1], help="Frame height in pixels.")
]


def _serve(app: Starlette, host: str, port: int, what: str) -> None:
    """Print the URL, then serve until interrupted; no access log (the harness polls a lot).
    uvicorn's defaults take httptools and uvloop (dependencies), its fastest parser and loop."""
    import socket

    import uvicorn

    from gptnt.errors import ConfigError

    try:  # refused here in one line, not by uvicorn's log line and its exit 3
        family, kind, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as err:
        raise ConfigError(
            f"--host {host!r} --port {port}: cannot listen there ({err.strerror or err}); "
            "choose another port or interface, or stop what holds it"
        ) from None
    typer.echo(f"{what} on http://{host}:{port}")
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)


def serve(
    host: Host = DEFAULT_HOST,
    port: Port = DEFAULT_PORT,
    width: Width = 640,
    height: Height = 480,
    rule_seed: Annotated[
        int,
        typer.Option(
            min=1, max=MAX_RULE_SEED, help="Rule seed the game plays (1 = the v1 manual)."
        ),
    ] = 1,
    pools: Annotated[
        Path | None, typer.Option(help="Rule-seed word pools file (Morse, Password).")
    ] = None,
    status_codes: Annotated[
        str,
        typer.Option(
            help="'honest': refusals carry 400/404; 'mod': exactly the shipped mod's codes "
            "(HTTP 200 with 'Error: …', 'Please enter …', 'Unknown route.')."
        ),
    ] = "honest",
    mask_style: Annotated[
        str,
        typer.Option(
            help="'flat': one exact colour per element; 'game': edges blended with black and "
            "with touching neighbours, patches one level off, as the real game's masks can be."
        ),
    ] = "flat",
    token: Annotated[
        str | None,
        typer.Option(
            envvar="GPTNT_GAME_TOKEN",
            help="Require this token in the X-Gptnt-Token header of every request (refused "
            "with 403 otherwise); the game service sends $GPTNT_GAME_TOKEN.",
        ),
    ] = None,
) -> None:
    """Serve the embedded simulator over the game's HTTP protocol.

    A ``/startmission`` whose ``ruleSeed`` extension parameter names another rule seed is
    refused, so a harness whose manual and oracle use other rules never plays this game.
    """
    from gptnt.errors import ConfigError
    from gptnt.rules.ruleset import ruleset
    from gptnt.sim.game import Game
    from gptnt.sim.mask_style import MASK_STYLES
    from gptnt.sim.server import STATUS_CODES, create_app

    if status_codes not in STATUS_CODES:
        raise ConfigError(f"--status-codes {status_codes!r}: use one of {', '.join(STATUS_CODES)}")
    if mask_style not in MASK_STYLES:
        raise ConfigError(f"--mask-style {mask_style!r}: use one of {', '.join(MASK_STYLES)}")
    game = Game(
        width=width,
        height=height,
        ruleset=ruleset(rule_seed, pools=pools),
        mask_style=mask_style,
    )
    app = create_app(game, status_codes=status_codes, token=token)
    _serve(app, host, port, f"Simulator ({width}x{height}, {status_codes} status codes) serving")


def record(
    out: Annotated[Path, typer.Option(help="Recording file to write (a zip).")],
    mission: Annotated[
        str | None, typer.Option(help="Mission id from the catalogue (overrides the flags).")
    ] = None,
    seed: Annotated[int, typer.Option(min=0, max=MAX_SEED, help="Bomb seed.")] = 1,
    components: Annotated[str, typer.Option(help="Comma list of modules.")] = "Wires,Keypad",
    time_limit: Annotated[
        int, typer.Option(min=1, max=int(MAX_SECONDS), help="Bomb timer, seconds.")
    ] = 120,
    steps: Annotated[
        int, typer.Option(min=1, max=MAX_COUNT, help="Extra /timestep+/state rounds.")
    ] = 2,
    width: Width = 160,
    height: Height = 120,
    url: Annotated[
        str | None, typer.Option(help="Record a running backend instead of an in-process sim.")
    ] = None,
) -> None:
    """Record a short scripted session (every request and response) for the stub."""
    import asyncio

    from gptnt.preflight import check_out_file

    check_out_file(out)
    config = _mission_config(mission, seed=seed, components=components, time_limit=time_limit)
    exchanges, source = asyncio.run(_record(config, steps, width, height, url))

    from gptnt.sim.recording import new_recording, summarise, write_recording

    note = f"mission {config.seed} {','.join(config.components)}; {steps} steps"
    if url is None:
        note += f"; {width}x{height}"
    write_recording(out, new_recording(exchanges, source=source, note=note))
    typer.echo(summarise(exchanges))
    typer.echo(f"{len(exchanges)} exchanges → {out} ({out.stat().st_size} bytes)")


async def _record(
    config: MissionConfig, steps: int, width: int, height: int, url: str | None
) -> tuple[list[Exchange], str]:
    import httpx

    from gptnt.protocol.client import GameClient
    from gptnt.sim.recording import RecordingTransport, play_session

    if url is None:
        from gptnt.sim.game import Game
        from gptnt.sim.server import create_app

        inner: httpx.AsyncBaseTransport = httpx.ASGITransport(
            create_app(Game(width=width, height=height))
        )
        base_url, source = "http://simulator", "simulator (in-process)"
    else:
        inner, base_url, source = httpx.AsyncHTTPTransport(), url, url
    transport = RecordingTransport(inner)
    async with GameClient(base_url, transport=transport) as client:
        await play_session(client, config, steps=steps)
    return transport.exchanges, source


def _mission_config(
    mission: str | None, *, seed: int, components: str, time_limit: int
) -> MissionConfig:
    """The mission to record: a catalogue id, or the flags."""
    from gptnt.protocol import MissionConfig

    if mission is not None:
        from gptnt.missions import get_mission

        return get_mission(mission).config
    return MissionConfig.from_query(
        {
            "seed": str(seed),
            "timeLimit": str(time_limit),
            "numStrikes": "3",
            "needyTime": str(min(60, time_limit)),
            "isFront": "true",
            "optWidgets": "3",
            "components": components,
            "timeScale": "1",
            "timeStepSize": "3000",
        }
    )


@stub_app.command("serve")
def stub_serve(
    file: Annotated[Path, typer.Argument(help="A recording made by `gptnt sim record`.")],
    host: Host = DEFAULT_HOST,
    port: Port = DEFAULT_PORT,
) -> None:
    """Replay a recording: same requests in order get the recorded answers; others get 409."""
    import logging

    from gptnt.sim.recording import create_stub_app, read_recording

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    recording = read_recording(file)
    what = f"Stub replaying {file} ({len(recording.exchanges)} exchanges)"
    _serve(create_stub_app(recording), host, port, what)


def register(app: typer.Typer) -> None:
    """Add ``serve`` and ``record`` to the ``sim`` group, and the ``stub`` group to ``app``."""
    from gptnt.cli.sim import sim_app

    sim_app.command("serve")(serve)
    sim_app.command("record")(record)
    app.add_typer(stub_app, name="stub")
