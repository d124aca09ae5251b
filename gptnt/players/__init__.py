"""One turn of a player: what it is told, what it is shown, and what its answer means.

- ``policy``: the one interface every player implements (``Policy.decide(TurnInput) ->
  Decision``, the Defuser's ``Observation``);
- ``turn``: one turn of any policy (``play_turn``): observe, decide, resolve the action once,
  carry it out through the Player Service's transport, and build the turn's record;
- ``prompts``: the system prompt per seat (Defuser, Expert, solo, solo without manual), mode
  and interaction method, assembled from Markdown components in ``prompts/``;
- ``observation``: the Defuser's images for a turn (previous frame, Simon/Morse sequence,
  newest frame with set-of-marks), resized for the model;
- ``conversation``: the context (system, pinned manual, text-only append-only history, images
  on the newest message only, cache points, truncation) as provider-neutral requests;
- ``parsing``, ``feedback``: the model's text → one action, with soft warnings and skipping
  errors told back as ``<execution-feedback>`` on the next turn;
- ``actions``: the action vocabulary and its conversion to the game's ``/action`` request;
- ``config``, ``backends``, ``model``: model players (YAML configs in ``configs/players/``,
  pydantic-ai calls with a per-call record, and ``ModelPolicy``, a model behind the same
  ``Policy`` interface as the scripted players; import it from ``gptnt.players.model``);
- ``scripted``: oracle, random and idle policies behind that interface;
- ``seats``: ``--defuser`` / ``--expert`` / ``--solo`` references resolved to players (scripted
  name, config name, YAML path, model string), with the manual each model reads;
- ``serving``: the ``vllm serve`` command line of an open-model config (``gptnt vllm``);
- ``cassette``: a loopback OpenAI-compatible stand-in (scripted or recorded replies) for tests,
  CI smoke runs and the prefix-cache benchmark.

Players never import the game client or the simulator: the Expert has no route to the game.
"""

from __future__ import annotations

from gptnt.players.actions import (
    Action,
    DoNothing,
    InteractGame,
    Interaction,
    MarkLocation,
    PointLocation,
    SendMessage,
    to_game_action,
)
from gptnt.players.config import PlayerConfig, load_player_config
from gptnt.players.conversation import (
    AssistantMessage,
    Attachment,
    CachePoint,
    ChatRequest,
    ContextBudgetError,
    Conversation,
    ImagePart,
    PartnerMessage,
    PrefixShare,
    TextPart,
    TokenBudget,
    UserMessage,
    shared_prefix,
    turn_text,
)
from gptnt.players.feedback import ISSUES, Issue, feedback_text
from gptnt.players.observation import MOTION_KINDS, ModelObservation, observe
from gptnt.players.parsing import ParsedOutput, parse_output
from gptnt.players.prompts import PromptSpec, Seat, allowed_kinds, system_prompt

__all__ = [
    "ISSUES",
    "MOTION_KINDS",
    "Action",
    "AssistantMessage",
    "Attachment",
    "CachePoint",
    "ChatRequest",
    "ContextBudgetError",
    "Conversation",
    "DoNothing",
    "ImagePart",
    "InteractGame",
    "Interaction",
    "Issue",
    "MarkLocation",
    "ModelObservation",
    "ParsedOutput",
    "PartnerMessage",
    "PlayerConfig",
    "PointLocation",
    "PrefixShare",
    "PromptSpec",
    "Seat",
    "SendMessage",
    "TextPart",
    "TokenBudget",
    "UserMessage",
    "allowed_kinds",
    "feedback_text",
    "load_player_config",
    "observe",
    "parse_output",
    "shared_prefix",
    "system_prompt",
    "to_game_action",
    "turn_text",
]
