"""Telling a failing provider from a failing model: when model-call failures end an episode
(the KTANE manager's and SANZARU's alike).

A model's bad answer is the model's doing and is played on (feedback, a record): any
well-formed completion, whatever its text (empty, another language, an unknown label, a tool
call, an action cut off by the token limit). Anything that cannot be a model's reply is the
provider's: the key refused, no answer (a hang, a dropped or reset connection, a truncated
body), an HTTP error (429, 5xx, other 4xx) after the transport retries, or a body that is not a
completion (HTML, JSON that is not the API's, ``"choices": []``). Playing on would score the
infrastructure as the model's loss, so such failures end the episode as ``crashed: provider …``
with their statuses, and a suite retries it and never counts it. The line between the two is
written out in docs/inputs-and-payloads.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gptnt.players.backends import MALFORMED, CallRecord
from gptnt.records import FailedCall, ProviderFault

CONSECUTIVE_FAILURES = 3
"""Failed calls in a row (each after its transport retries) that end the episode."""


@dataclass
class ProviderWatch:
    """Counts each role's consecutive failed model calls (of every kind: an answer that is not a
    completion counts like a 5xx). Refused credentials end the episode at once (no retry can
    succeed)."""

    limit: int = CONSECUTIVE_FAILURES
    _runs: dict[str, list[FailedCall]] = field(default_factory=dict)

    def see(self, role: str, failed: FailedCall | None) -> str | None:
        """Note one turn's call; the episode's crash reason once the provider counts as down."""
        if failed is None:
            self._runs[role] = []
            return None
        run = self._runs.setdefault(role, [])
        run.append(failed)
        if failed.fault == "auth":
            return f"provider refused the {role}'s credentials ({_status(failed)}): {failed.error}"
        if len(run) >= self.limit:
            statuses = ", ".join(_status(f) for f in run[-self.limit :])
            return (
                f"provider failed {len(run)} calls of the {role} in a row ({statuses}): "
                f"{failed.error}"
            )
        return None


def _status(failed: FailedCall) -> str:
    """One failed call as the crash reason names it: its status (or what came instead), and
    how many attempts it took when more than one."""
    if failed.fault == "malformed":
        what = "not a completion" if failed.status is None else f"HTTP {failed.status} garbage"
    else:
        what = "no answer" if failed.status is None else f"HTTP {failed.status}"
    tries = len(failed.attempts)
    return f"{what} after {tries} attempts" if tries > 1 else what


def failed_call(call: CallRecord) -> FailedCall | None:
    """The record of a model call the provider failed (its error already holds no secret:
    ``ModelBackend`` scrubs it)."""
    if call.failure != "provider_error":
        return None
    return FailedCall(
        fault=fault_of(call), status=call.status, error=(call.error or "no message")[:300],
        attempts=list(call.attempts),
    )  # fmt: skip


def fault_of(call: CallRecord) -> ProviderFault:
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
