"""Tidy exports: an ``episodes`` table (one row per episode of the runs, counted or not) and a
``turns`` table (one row per player turn), as Parquet or CSV, so that
``pandas.read_parquet("episodes.parquet")`` or ``duckdb.sql("from 'turns.parquet'")`` loads
them in one line. The columns are documented in ``docs/report.md``; their names
and types are fixed here, in ``EPISODE_COLUMNS`` and ``TURN_COLUMNS``.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Literal

from gptnt.analysis._load import RecordedEpisode, Run
from gptnt.errors import ConfigError
from gptnt.protocol import ROLES
from gptnt.records import PlayerInfo, TurnEvent, add_costs, write_atomic

Format = Literal["parquet", "csv"]
FORMATS: tuple[Format, ...] = ("parquet", "csv")

ColumnType = Literal["string", "int", "float", "bool"]

_PLAYER: tuple[tuple[str, ColumnType], ...] = (
    ("", "string"), ("kind", "string"), ("privileged", "bool"), ("seat", "string"),
    ("model", "string"), ("base_url_host", "string"), ("temperature", "float"),
    ("max_tokens", "int"), ("image_width", "int"), ("image_height", "int"),
    ("interaction", "string"), ("thinking", "string"), ("thinking_budget", "int"),
    ("output", "string"), ("previous_frames", "int"), ("keep_thinking", "bool"),
    ("execution_feedback", "bool"), ("reflection", "bool"), ("prompt_hash", "string"),
    ("manual", "string"),
)  # fmt: skip

EPISODE_COLUMNS: tuple[tuple[str, ColumnType], ...] = (
    ("run", "string"), ("episode_id", "string"), ("episode_key", "string"), ("attempt", "int"),
    ("attempts", "int"), ("status", "string"), ("scored", "bool"), ("mission_id", "string"),
    ("mode", "string"), ("pairing", "string"), ("rule_seed", "int"), ("suite", "string"),
    ("repeat", "int"), ("seed", "int"), ("solo", "bool"), ("no_manual", "bool"),
    ("manual", "string"), ("manual_read", "string"), ("time_factor", "float"), ("clock", "string"), ("latency", "string"),
    ("parent_episode_id", "string"), ("fork_turn", "int"),
    *((f"{role}{'_' + name if name else ''}", t) for role in ROLES for name, t in _PLAYER),
    ("harness_version", "string"), ("harness_commit", "string"), ("schema_version", "int"),
    ("outcome", "string"), ("reason", "string"), ("modules", "int"), ("modules_solved", "int"),
    ("module_kinds", "string"), ("strikes", "int"), ("time_limit_s", "float"),
    ("game_time_used_s", "float"), ("turns_defuser", "int"), ("turns_expert", "int"),
    ("messages_defuser", "int"), ("messages_expert", "int"), ("tokens_input", "int"),
    ("tokens_output", "int"), ("tokens_cache_read", "int"), ("tokens_cache_write", "int"),
    ("cost_usd", "float"), ("started_at", "float"), ("ended_at", "float"),
)  # fmt: skip

TURN_COLUMNS: tuple[tuple[str, ColumnType], ...] = (
    ("run", "string"), ("episode_id", "string"), ("mission_id", "string"), ("mode", "string"),
    ("rule_seed", "int"), ("time_factor", "float"), ("role", "string"), ("player", "string"), ("turn", "int"), ("started_at", "float"),
    ("dispatched_at", "float"), ("seconds_remaining", "float"), ("strikes", "int"),
    ("focused", "string"), ("action_kind", "string"), ("action_name", "string"),
    ("label", "string"), ("x_pos", "float"), ("y_pos", "float"), ("message", "string"),
    ("message_words", "int"), ("received", "int"), ("result", "string"), ("warnings", "string"),
    ("errors", "string"), ("frames", "int"), ("shown_images", "int"), ("tokens_input", "int"),
    ("tokens_output", "int"), ("tokens_cache_read", "int"), ("tokens_cache_write", "int"),
    ("cost_usd", "float"), ("latency_s", "float"), ("game_time", "float"),
    ("dispatch_game_time", "float"), ("restored", "bool"), ("round", "int"),
    ("raw_output", "string"),
)  # fmt: skip


def _player(prefix: str, p: PlayerInfo | None) -> dict[str, object]:
    s = p.settings if p else None
    values: dict[str, object] = {
        "": p.label if p else None, "kind": p.kind if p else None,
        "privileged": p.privileged if p else None, "seat": p.seat if p else None,
        "model": s.model if s else None, "base_url_host": s.base_url_host if s else None,
        "temperature": s.temperature if s else None, "max_tokens": s.max_tokens if s else None,
        "image_width": s.image_size[0] if s else None, "image_height": s.image_size[1] if s else None,
        "interaction": s.interaction if s else None, "thinking": s.thinking if s else None,
        "thinking_budget": s.thinking_budget if s else None, "output": s.output if s else None,
        "previous_frames": s.previous_frames if s else None,
        "keep_thinking": s.keep_thinking if s else None,
        "execution_feedback": s.execution_feedback if s else None,
        "reflection": s.reflection if s else None,
        "prompt_hash": p.prompt_hash if p else None, "manual": p.manual if p else None,
    }  # fmt: skip
    return {f"{prefix}{'_' + k if k else ''}": v for k, v in values.items()}


def episode_row(e: RecordedEpisode) -> dict[str, object]:
    s = e.summary
    c = e.conditions
    h = e.harness
    return {
        "run": e.run, "episode_id": e.episode_id, "episode_key": e.key, "attempt": e.attempt,
        "attempts": e.attempts, "status": e.status, "scored": e.scored,
        "mission_id": e.mission_id, "mode": e.recorded_mode, "pairing": e.pairing,
        "rule_seed": e.rule_seed, "suite": c.suite if c else None, "repeat": e.repeat,
        "seed": c.seed if c else None,
        "solo": c.solo if c else e.sanzaru.solo if e.sanzaru else e.player("expert") is None,
        "no_manual": c.no_manual if c else None, "manual": e.manual_source,
        "manual_read": e.manual_read,
        "time_factor": c.time_factor if c else 1.0, "clock": c.clock if c else "wall",
        "latency": c.latency if c else None,
        "parent_episode_id": e.parent.episode_id if e.parent else None,
        "fork_turn": e.parent.fork_turn if e.parent else None,
        **_player("defuser", e.player("defuser")), **_player("expert", e.player("expert")),
        "harness_version": h.version if h else None, "harness_commit": h.commit if h else None,
        "schema_version": e.schema_version, "outcome": e.outcome,
        "reason": s.reason if s else (e.ended.reason if e.ended else "no summary"),
        "modules": len(s.modules) if s else None, "modules_solved": s.modules_solved if s else None,
        "module_kinds": ",".join(m.name for m in s.modules) if s else None,
        "strikes": s.strikes if s else None, "time_limit_s": s.time_limit if s else None,
        "game_time_used_s": s.game_time_used if s else None,
        "turns_defuser": sum(t.role == "defuser" for t in e.turns),
        "turns_expert": sum(t.role == "expert" for t in e.turns),
        "messages_defuser": sum(t.role == "defuser" and t.action.kind == "send_message" for t in e.turns),
        "messages_expert": sum(t.role == "expert" and t.action.kind == "send_message" for t in e.turns),
        "tokens_input": sum(t.tokens.input for t in e.turns),
        "tokens_output": sum(t.tokens.output for t in e.turns),
        "tokens_cache_read": sum(t.tokens.cache_read for t in e.turns),
        "tokens_cache_write": sum(t.tokens.cache_write for t in e.turns),
        "cost_usd": s.cost_usd if s and s.sanzaru else add_costs(t.cost_usd for t in e.turns),
        "started_at": s.started_at if s else (e.started.at if e.started else None),
        "ended_at": s.ended_at if s else (e.ended.at if e.ended else None),
    }  # fmt: skip


def turn_row(e: RecordedEpisode, t: TurnEvent) -> dict[str, object]:
    a = t.action
    c = e.conditions
    player = e.player(t.role)
    return {
        "run": e.run, "episode_id": e.episode_id, "mission_id": e.mission_id,
        "mode": e.recorded_mode, "rule_seed": e.rule_seed, "time_factor": c.time_factor if c else 1.0, "role": t.role, "player": player.label if player else None, "turn": t.turn,
        "started_at": t.started_at, "dispatched_at": t.dispatched_at,
        "seconds_remaining": t.seconds_remaining, "strikes": t.strikes, "focused": t.focused,
        "action_kind": a.kind, "action_name": a.name, "label": a.label, "x_pos": a.x_pos,
        "y_pos": a.y_pos, "message": a.message,
        "message_words": len(a.message.split()) if a.message else None,
        "received": len(t.received), "result": t.result,
        "warnings": json.dumps(t.warnings), "errors": json.dumps(t.errors),
        "frames": len(t.frames), "shown_images": len(t.shown),
        "tokens_input": t.tokens.input, "tokens_output": t.tokens.output,
        "tokens_cache_read": t.tokens.cache_read, "tokens_cache_write": t.tokens.cache_write,
        "cost_usd": t.cost_usd, "latency_s": t.latency_s, "game_time": t.game_time,
        "dispatch_game_time": t.dispatch_game_time, "restored": t.restored,
        "round": None, "raw_output": t.raw_output,
    }  # fmt: skip


def sanzaru_turn_rows(e: RecordedEpisode) -> Iterator[dict[str, object]]:
    """A SANZARU episode's agent turns in the ``turns`` columns: the seat as ``role``, the
    team as ``player``, ``turn`` counted per seat, its ``round``, the calls' names as
    ``action_name``; the KTANE-only columns (clock, marks, tokens) empty."""
    per_role: Counter[str] = Counter()
    team = e.sanzaru.label() if e.sanzaru else None
    for t in e.sanzaru_turns:
        row: dict[str, object] = dict.fromkeys(c for c, _ in TURN_COLUMNS)
        row.update({
            "run": e.run, "episode_id": e.episode_id, "mission_id": e.mission_id,
            "mode": e.recorded_mode, "rule_seed": e.rule_seed, "time_factor": 1.0,
            "role": t.role, "player": team, "turn": per_role[t.role], "round": t.round,
            "action_name": ",".join(str(c.get("call", "?")) for c in t.calls),
            "received": len(t.delivered), "warnings": "[]",
            "errors": json.dumps([t.failure] if t.failure else []),
            "cost_usd": t.cost_usd, "latency_s": t.latency_s, "restored": False,
            "raw_output": t.raw,
        })  # fmt: skip
        per_role[t.role] += 1
        yield row


def export(runs: Sequence[Run], out: Path, fmt: Format) -> dict[str, Path]:
    """Write ``episodes`` and ``turns`` under ``out``; returns table name → file."""
    if fmt not in FORMATS:
        raise ConfigError(f"--format {fmt!r}: use one of {', '.join(FORMATS)}")
    episodes = [e for r in runs for e in r.episodes]
    turns = [turn_row(e, t) for e in episodes for t in e.turns]
    turns += [row for e in episodes for row in sanzaru_turn_rows(e)]
    tables = {
        "episodes": (EPISODE_COLUMNS, [episode_row(e) for e in episodes]),
        "turns": (TURN_COLUMNS, turns),
    }
    out.mkdir(parents=True, exist_ok=True)
    written = {}
    for name, (columns, rows) in tables.items():
        path = out / f"{name}.{fmt}"
        write_atomic(path, _parquet(columns, rows) if fmt == "parquet" else _csv(columns, rows))
        written[name] = path
    return written


def _csv(columns: Sequence[tuple[str, ColumnType]], rows: list[dict[str, object]]) -> bytes:
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([c for c, _ in columns])
    for row in rows:
        writer.writerow(["" if row[c] is None else row[c] for c, _ in columns])
    return buffer.getvalue().encode()


def _parquet(columns: Sequence[tuple[str, ColumnType]], rows: list[dict[str, object]]) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    types = {"string": pa.string(), "int": pa.int64(), "float": pa.float64(), "bool": pa.bool_()}
    schema = pa.schema([(c, types[t]) for c, t in columns])
    table = pa.Table.from_pylist([{c: row[c] for c, _ in columns} for row in rows], schema=schema)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()
