"""gptnt: the GPTNT benchmark harness (Keep Talking and Nobody Explodes for two LLM agents).

The public Python API (docs/api.md); the ``gptnt`` command is a thin layer over it::

    import gptnt

    summary = gptnt.run_episode("3", "sync", defuser="random", expert="oracle")
    runs = gptnt.load_records(["runs/my-run"])
"""

from gptnt.api import (
    BaselineStart,
    Starting,
    load_records,
    replay_episode,
    run_baseline,
    run_episode,
    run_episode_async,
)

__all__ = [
    "BaselineStart",
    "Starting",
    "load_records",
    "replay_episode",
    "run_baseline",
    "run_episode",
    "run_episode_async",
]
