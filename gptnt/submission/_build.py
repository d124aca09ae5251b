"""Our records → GPTNT's submission rows: every field from what the run recorded, or ``None``
where the records cannot say (docs/submission.md has the table).

Checked up front, each refusal one ``ConfigError`` line: every episode finished with an outcome
of the game (not crashed, parked, interrupted or still being played), none a replay's branch,
every one written by record schema 5 or later (the final bomb state), and all of one Defuser
setup, one suite, one mode, one harness and one run of each mission per pairing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime

from gptnt.analysis import RecordedEpisode, Run
from gptnt.errors import ConfigError
from gptnt.missions import get_mission
from gptnt.protocol import BombState
from gptnt.records import PlayerIdentity, PlayerInfo
from gptnt.submission._schema import (
    BombOutcome,
    ExperimentDescriptor,
    ExperimentSpec,
    ImageDimensions,
    InteractiveSubmission,
    MissionSpec,
    PlayerCapabilities,
    PlayerProtocol,
    Provenance,
    RunUsage,
    SubmissionExperiment,
    SubmissionPlayer,
    Submitter,
    SuiteIdentity,
    UsageLimits,
    stable_digest,
)

FIRST_SCHEMA = 5
"""The first record schema that keeps what a submission needs (``Summary.final_state``)."""
MODEL_OBSERVATIONS = 16
"""The most game frames one model request carries (``gptnt.players.observation``'s
``SEQUENCE_LENGTH``: a blinking module's sequence)."""
MODEL_PRESERVED_FRAMES = 1
"""A model Defuser's newest turn also carries the last frame of its previous turn."""
SCRIPTED_ORGANISATION = "gptnt"
"""Who develops the scripted baselines (oracle, random, idle): this harness."""
_NOT_SPEC = ("sessionId", "ruleSeed")
_COORDINATES = {"absolute": "absolute", "scaled": "normalised"}  # ours → GPTNT's (0–1000)


def slugify(name: str) -> str:
    """Lower case, every run of characters other than ``a-z0-9`` one dash (GPTNT's rule)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def submission_id(run_date: datetime, defuser: PlayerCapabilities, measured: SuiteIdentity) -> str:
    """``<YYYY-MM-DD>_<player slug>_<fingerprint[:8]>_<suite>@<revision>`` (GPTNT's rule)."""
    return (f"{run_date.date().isoformat()}_{slugify(defuser.player_name)}_"
            f"{defuser.fingerprint[:8]}_{measured.target}")  # fmt: skip


def capabilities(player: PlayerInfo) -> PlayerCapabilities:
    """A player's capabilities from its record. A scripted policy has no model setup: those
    fields are ``None``."""
    s = player.settings
    if player.kind != "model" or s is None:
        return PlayerCapabilities(
            player_name=player.policy, player_type="ai", thinking_method=None,
            structured_output_mode=None, include_schema_in_instructions=None,
            max_observations_per_request=None, image_dimensions=None, tokens_per_image=None,
            interaction_location_method=None, coordinate_mode=None,
            preserve_last_frame_for_n_turns=None, enable_nobf_generation=None,
        )  # fmt: skip
    method = s.interaction if s.interaction in ("set-of-marks", "coordinates") else None
    coordinates = _COORDINATES.get(s.coordinates or "") if method == "coordinates" else None
    # Our models reason in <thoughts> and answer with a JSON command in <action>, parsed from
    # the text: GPTNT's "thinking-out-loud", no structured output, the format in the prompt.
    return PlayerCapabilities(
        player_name=player.policy, player_type="ai", thinking_method="thinking-out-loud",
        structured_output_mode=None, include_schema_in_instructions=True,
        max_observations_per_request=MODEL_OBSERVATIONS,
        usage_limits=UsageLimits(input_tokens_limit=s.input_limit),
        image_dimensions=ImageDimensions(width=s.image_size[0], height=s.image_size[1]),
        tokens_per_image=s.tokens_per_image, interaction_location_method=method,
        coordinate_mode=coordinates,
        preserve_last_frame_for_n_turns=MODEL_PRESERVED_FRAMES if player.role == "defuser" else 0,
        enable_nobf_generation=s.execution_feedback,
    )  # fmt: skip


def identity(player: PlayerInfo) -> PlayerIdentity:
    if player.kind != "model":
        return PlayerIdentity(
            display_name=player.label, organisation=SCRIPTED_ORGANISATION,
            is_os_model=True, url=None,
        )  # fmt: skip
    if player.identity is None:
        raise ConfigError(
            f"player {player.policy} ({player.role}): its records carry no identity; add an "
            "`identity:` block (display_name, organisation, is_os_model, url) to its player "
            "config and play the run again"
        )
    return player.identity


def refuse_damaged(runs: Sequence[Run]) -> None:
    """A ``ConfigError`` naming the first record file the loader skipped lines or files of
    (torn, not JSON): a skipped turn would be missing from its row's usage."""
    damaged = [line for run in runs for line in run.unreadable]
    if damaged:
        more = f" (and {len(damaged) - 1} more)" if len(damaged) > 1 else ""
        raise ConfigError(f"RUN_DIR: {damaged[0]}{more}; a submission is built from whole "
                          "records only: play that episode again or leave its run out")  # fmt: skip


def _refuse_unfit(e: RecordedEpisode) -> None:
    where = f"{e.run}: episode {e.key}"
    if e.status == "incomplete":
        raise ConfigError(f"{where} is unfinished (no ledger line: still playing or killed); "
                          "finish the run (`gptnt suite run` resumes it) or leave the run out")  # fmt: skip
    if e.status != "finished" or not e.scored:
        raise ConfigError(f"{where} ended {e.outcome} ({e.status}), not with an outcome of the "
                          "game; play it again (`gptnt suite run` retries it) before submitting")  # fmt: skip
    if e.parent is not None:
        raise ConfigError(f"{where} is a counterfactual replay's branch, not a played episode; "
                          "leave its run out")  # fmt: skip
    if e.rule_seed != 1:
        raise ConfigError(f"{where} was played with rule seed {e.rule_seed}; GPTNT's "
                          "leaderboard measures the game's own rules (rule seed 1)")  # fmt: skip
    if e.schema_version < FIRST_SCHEMA or e.summary is None or e.summary.final_state is None:
        raise ConfigError(f"{where}: record schema {e.schema_version} keeps no final bomb "
                          f"state; a submission needs schema {FIRST_SCHEMA} (play it again)")  # fmt: skip
    if e.started is None or e.started.harness is None or e.started.session_id is None:
        raise ConfigError(f"{where}: its first line names no harness or session; play it again")


def _one(values: set[str], what: str, fix: str) -> str:
    if len(values) != 1:
        raise ConfigError(f"mixed runs: {len(values)} {what} ({', '.join(sorted(values))}); {fix}")
    return next(iter(values))


def _protocol(e: RecordedEpisode, role: str, mode: str) -> PlayerProtocol:
    c = e.conditions
    solo = bool(c and c.solo)
    # The Expert always reads the manual; a solo Defuser does unless played without it.
    manual = role == "expert" or (solo and not (c and c.no_manual))
    return PlayerProtocol(role=role, communication_style=mode, is_playing_alone=solo,
                          include_manual=manual)  # fmt: skip


def _usage(e: RecordedEpisode, role: str) -> RunUsage:
    turns = [t for t in e.turns if t.role == role and not t.restored]
    return RunUsage(
        requests=sum(t.request is not None and t.failed_call is None for t in turns),
        input_tokens=sum(t.tokens.input for t in turns),
        output_tokens=sum(t.tokens.output for t in turns),
        cache_read_tokens=sum(t.tokens.cache_read for t in turns),
        cache_write_tokens=sum(t.tokens.cache_write for t in turns),
    )


def _git_sha(e: RecordedEpisode) -> str | None:
    h = e.started.harness if e.started else None
    if h is None or h.commit is None:
        return None
    return f"{h.commit}-dirty" if h.dirty else h.commit


def _mission_set(mission_id: str) -> str:
    """The mission's catalogue group (``multi``, ``single``, or a user's own)."""
    try:
        return get_mission(mission_id).kind
    except ConfigError:
        return "unknown"


def experiment(e: RecordedEpisode, suite: SuiteIdentity) -> SubmissionExperiment:
    """One finished episode as GPTNT's experiment row (``_refuse_unfit`` passed)."""
    assert e.summary is not None and e.summary.final_state is not None and e.started is not None
    summary, started = e.summary, e.started
    state = BombState.model_validate(summary.final_state)
    # GPTNT's spec without the session (the descriptor has it) or our rule seed (rule_seed 1
    # is the v1 manual, the only rules GPTNT plays; another is its own condition).
    wire = {k: v for k, v in json.loads(started.mission).items() if k not in _NOT_SPEC}
    mission = MissionSpec.model_validate(wire)
    mode = summary.mode
    defuser = e.player("defuser")
    assert defuser is not None
    expert = e.player("expert")
    caps = {p.role: capabilities(p) for p in e.players}
    expert_protocol = _protocol(e, "expert", mode) if expert else None
    spec = ExperimentSpec(
        mission_spec=mission, mission_set=_mission_set(summary.mission_id),
        attempt=summary.attempt, suite_name=suite.suite_name, suite_revision=suite.suite_revision,
        defuser_protocol=_protocol(e, "defuser", mode), defuser_name=defuser.policy,
        expert_protocol=expert_protocol, expert_name=expert.policy if expert else None,
    )  # fmt: skip
    start = datetime.fromtimestamp(summary.started_at, UTC)
    prefix = ("+solo" if spec.defuser_protocol.is_playing_alone else "") + (
        "+manual" if spec.defuser_protocol.include_manual else ""
    )
    pairing = f"defuser={defuser.policy}{prefix}--expert={expert.policy if expert else None}"
    modules = "-".join(sorted(set(mission.components)))
    name = (f"{suite.suite_name}[rev{suite.suite_revision}]_{spec.mission_set}_{mode}_{modules}_"
            f"{mission.seed}_({pairing})_attempt{summary.attempt}")  # fmt: skip
    outcome = BombOutcome(summary.outcome)
    return SubmissionExperiment(
        gptnt_version=started.harness.version if started.harness else "", git_sha=_git_sha(e),
        outcome=outcome, seconds_remaining=state.timer_module.seconds_remaining,
        strike_count=len(state.strikes), num_modules_solved=sum(m.is_solved for m in state.modules),
        attempt_name=name, session_id=started.session_id or "", mission_set=spec.mission_set,
        suite_name=suite.suite_name, suite_revision=suite.suite_revision, seed=mission.seed,
        pairing=pairing, defuser_name=defuser.policy,
        expert_name=expert.policy if expert else None, communication_style=mode,
        attempt=summary.attempt, modules=mission.components, is_hard_crash=False,
        experiment_descriptor=ExperimentDescriptor(
            experiment_spec=spec, session_id=started.session_id or "", expert_uuid=None,
            defuser_uuid=None, game_uuid=None, defuser_capabilities=caps["defuser"],
            expert_capabilities=caps.get("expert"), start_time=start,
        ),
        defuser_capabilities=caps["defuser"], expert_capabilities=caps.get("expert"),
        final_bomb_state=state, defuser_usage=_usage(e, "defuser"),
        expert_usage=_usage(e, "expert") if expert else None,
    )  # fmt: skip


def build(
    episodes: Sequence[RecordedEpisode], submitter: Submitter
) -> tuple[InteractiveSubmission, list[SubmissionExperiment]]:
    """The manifest and the rows of one bundle: one Defuser setup on one suite in one mode."""
    if not episodes:
        raise ConfigError("RUN_DIR: no episodes to submit (none left after --mode, --repeat "
                          "and --defuser); check those against the runs")  # fmt: skip
    for e in episodes:
        _refuse_unfit(e)
    setups = {capabilities(p).fingerprint: p.policy for e in episodes for p in e.players
              if p.role == "defuser"}  # fmt: skip
    if len(setups) > 1:
        names = ", ".join(f"{n} ({f[:8]})" for f, n in sorted(setups.items(), key=lambda x: x[1]))
        raise ConfigError(f"mixed runs: {len(setups)} Defuser setups ({names}); a submission "
                          "is one Defuser's: choose it with --defuser NAME")  # fmt: skip
    suite = _one({(e.conditions.suite if e.conditions else None) or "unknown" for e in episodes},
                 "suites", "a submission measures one suite; give only its runs")  # fmt: skip
    _one(
        {e.recorded_mode for e in episodes}, "modes", "choose one with --mode sync or --mode async"
    )
    harnesses = {f"{e.started.harness.version} {_git_sha(e)}" for e in episodes
                 if e.started and e.started.harness}  # fmt: skip
    _one(harnesses, "harness versions", "a submission's runs come from one checkout")
    seen: dict[tuple[str, ...], str] = {}
    for e in episodes:
        who = tuple(capabilities(p).fingerprint for p in e.players)
        key = (*who, e.mission_id)
        if key in seen:
            raise ConfigError(f"mixed runs: {seen[key]} and {e.key} are the same mission and "
                              "players; a submission takes one of each (--repeat N chooses)")  # fmt: skip
        seen[key] = e.key
    for e in episodes:
        for p in e.players:
            identity(p)  # a model without one is refused before anything is built
    # What was measured, from the records: every mission as played, in each mode.
    played = sorted({f"{e.recorded_mode} {e.started.mission}" for e in episodes if e.started})
    measured = SuiteIdentity(suite_name=suite, suite_revision=0, suite_digest=stable_digest(played))
    rows = sorted((experiment(e, measured) for e in episodes), key=lambda r: r.attempt_name)
    first = min(episodes, key=lambda e: e.summary.started_at if e.summary else 0.0)
    defuser_info = first.player("defuser")
    assert defuser_info is not None
    players = [SubmissionPlayer(role="defuser", capabilities=capabilities(defuser_info),
                                identity=identity(defuser_info))]  # fmt: skip
    experts: dict[str, PlayerInfo] = {}
    for e in episodes:
        info = e.player("expert")
        if info is not None:
            experts.setdefault(capabilities(info).fingerprint, info)
    for info in sorted(experts.values(), key=lambda p: p.policy):
        players.append(SubmissionPlayer(role="expert", capabilities=capabilities(info),
                                        identity=identity(info)))  # fmt: skip
    run_date = min(r.started for r in rows)
    manifest = InteractiveSubmission(
        submission_id=submission_id(run_date, players[0].capabilities, measured), measured=measured, submitter=submitter, players=players,
        provenance=Provenance(gptnt_version=rows[0].gptnt_version, git_sha=rows[0].git_sha),
        run_date=run_date,
    )  # fmt: skip
    return manifest, rows
