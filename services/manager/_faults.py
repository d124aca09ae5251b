"""Telling a failing provider from a failing model: when model-call failures end an episode.

A model's bad answer is the model's doing and is played on (feedback, a record). A provider
that cannot be used — the key is refused, the endpoint does not answer, or it keeps answering
429/5xx after the SDK's own transport retries — says nothing about the model: playing on would
score the infrastructure as the model's loss. Such an episode ends as ``crashed: provider …``,
so a suite retries it and never counts it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gptnt.records import FailedCall

CONSECUTIVE_FAILURES = 3
"""Failed calls in a row (each after its transport retries) that end the episode."""


@dataclass
class ProviderWatch:
    """Counts each role's consecutive failed model calls. Refused credentials end the episode
    at once (no retry can succeed); a malformed answer loses its turn but does not count."""

    limit: int = CONSECUTIVE_FAILURES
    _runs: dict[str, int] = field(default_factory=dict)

    def see(self, role: str, failed: FailedCall | None) -> str | None:
        """Note one turn's call; the episode's crash reason once the provider counts as down."""
        if failed is None or failed.fault == "malformed":
            self._runs[role] = 0
            return None
        run = self._runs[role] = self._runs.get(role, 0) + 1
        status = "no answer" if failed.status is None else f"HTTP {failed.status}"
        if failed.fault == "auth":
            return f"provider refused the {role}'s credentials ({status}): {failed.error}"
        if run >= self.limit:
            return f"provider failed {run} calls of the {role} in a row ({status}): {failed.error}"
        return None
