"""Episode records and the run ledger: versioned, append-only, readable without the harness.

One directory per episode (``events.jsonl`` appended as it runs, frames stored once by content
hash, ``summary.json`` written last and atomically) and one ledger per run, so a rerun skips
finished episodes. Analysis and the report read only these files.
"""

from __future__ import annotations

from gptnt.records._bundle import pack, unpack
from gptnt.records._cost import UNKNOWN, add_costs, known_cost, usd
from gptnt.records._episode import (
    EpisodeWriter,
    disk_problem,
    frame_path,
    read_events,
    read_message,
    read_summary,
    requests,
    store_message,
    store_png,
    write_atomic,
)
from gptnt.records._harness import harness
from gptnt.records._ledger import EPISODES, LEDGER, Ledger, LedgerEntry, Status, episode_dir
from gptnt.records._lock import LOCK, RunLock
from gptnt.records._outcome import TIMER_TOLERANCE_S, classify
from gptnt.records._run import RUN_FILE, RunInfo, read_run_info, write_run_info
from gptnt.records._schema import (
    READABLE_VERSIONS,
    SCHEMA_VERSION,
    Clock,
    Conditions,
    EpisodeEnded,
    EpisodeOutcome,
    EpisodeStarted,
    Event,
    FailedCall,
    GameStep,
    Harness,
    MessagePart,
    ModuleResult,
    Parent,
    PlayerInfo,
    PlayerSettings,
    ProviderFault,
    RecordedAction,
    ShownImage,
    StoredMessage,
    Summary,
    Tokens,
    Transcript,
    TurnEvent,
)

__all__ = [
    "EPISODES",
    "LEDGER",
    "LOCK",
    "READABLE_VERSIONS",
    "RUN_FILE",
    "SCHEMA_VERSION",
    "TIMER_TOLERANCE_S",
    "UNKNOWN",
    "Clock",
    "Conditions",
    "EpisodeEnded",
    "EpisodeOutcome",
    "EpisodeStarted",
    "EpisodeWriter",
    "Event",
    "FailedCall",
    "GameStep",
    "Harness",
    "Ledger",
    "LedgerEntry",
    "MessagePart",
    "ModuleResult",
    "Parent",
    "PlayerInfo",
    "PlayerSettings",
    "ProviderFault",
    "RecordedAction",
    "RunInfo",
    "RunLock",
    "ShownImage",
    "Status",
    "StoredMessage",
    "Summary",
    "Tokens",
    "Transcript",
    "TurnEvent",
    "add_costs",
    "classify",
    "disk_problem",
    "episode_dir",
    "frame_path",
    "harness",
    "known_cost",
    "pack",
    "read_events",
    "read_message",
    "read_run_info",
    "read_summary",
    "requests",
    "store_message",
    "store_png",
    "unpack",
    "usd",
    "write_atomic",
    "write_run_info",
]
