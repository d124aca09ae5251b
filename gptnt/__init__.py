"""gptnt: the GPTNT benchmark harness (Keep Talking and Nobody Explodes for two LLM agents).

The public Python API (``gptnt.api``, docs/api.md); the ``gptnt`` command is a thin layer over
it::

    import gptnt

    summary = gptnt.run_episode("3", "sync", defuser="random", expert="oracle")
    runs = gptnt.load_records(["runs/my-run"])
"""

from gptnt import api
from gptnt.api import *  # noqa: F403 - the package's surface is exactly gptnt.api's

__all__ = api.__all__
