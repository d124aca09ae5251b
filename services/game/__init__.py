"""The Game Service: owns one game backend and serves it on the bus (see ``api``)."""

from __future__ import annotations

from gptnt.services.game._backend import SIM, SIM_PROCESS, Backend
from gptnt.services.game._service import GameService

__all__ = ["SIM", "SIM_PROCESS", "Backend", "GameService"]
