"""``gptnt submission``: a bundle built from a scripted run (played here on the simulator)
validates against GPTNT's submission schema (``gptnt.submission``'s models, checked against the
field list below, written from GPTNT's schema), agrees with the records it came from, and every
bad input is one line with exit 2."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from pyarrow import parquet as pq

from gptnt.submission import (
    MANIFEST,
    PAYLOAD,
    InteractiveSubmission,
    SubmissionExperiment,
    read_bundle,
    stable_digest,
)

GPTNT = Path(sys.executable).parent / "gptnt"
TIMING_RUN = Path(__file__).resolve().parent / "data" / "timing-run"

# GPTNT's interactive submission, field by field (its schema version 1).
MANIFEST_KEYS = ["schema_version", "submission_id", "measured", "submitter", "players",
                 "provenance", "run_date"]  # fmt: skip
PLAYER_KEYS = {"role", "capabilities", "identity", "fingerprint"}
CAPABILITY_KEYS = {
    "player_name", "player_type", "thinking_method", "structured_output_mode",
    "include_schema_in_instructions", "max_observations_per_request", "usage_limits",
    "image_dimensions", "tokens_per_image", "interaction_location_method", "coordinate_mode",
    "preserve_last_frame_for_n_turns", "enable_nobf_generation",
}  # fmt: skip
IDENTITY_KEYS = {"display_name", "organisation", "is_os_model", "url"}
COLUMNS = {
    # provenance, outcome and the experiment summary
    "gptnt_version", "git_sha", "outcome", "seconds_remaining", "strike_count",
    "num_modules_solved", "is_solved", "is_strike_out", "is_timed_out", "is_detonated",
    "attempt_name", "session_id", "mission_set", "suite_name", "suite_revision", "seed",
    "pairing", "defuser_name", "expert_name", "communication_style", "attempt", "modules",
    "is_hard_crash", "experiment_descriptor", "defuser_capabilities", "expert_capabilities",
    "tags", "defuser_capability_fingerprint", "expert_capability_fingerprint",
    "defuser_has_manual", "mission_key",
    # the submission's own
    "final_bomb_state", "defuser_usage", "expert_usage",
}  # fmt: skip


def _gptnt(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GPTNT_OFFLINE": "1"}
    return subprocess.run([str(GPTNT), *args], capture_output=True, text=True, timeout=600,
                          env=env, cwd=cwd, check=False)  # fmt: skip


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Wires-234 in sync, oracle and random self-play (two Defusers: a mixed run as a whole)."""
    out = tmp_path_factory.mktemp("scripted")
    done = _gptnt("suite", "run", "single", "--only", "Wires-234", "--modes", "sync",
                  "--players", "oracle,random", "--run", "scripted", "--out", str(out),
                  "--games", "1", "--yes", "--retries", "0", "--launch", "task")  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return out / "scripted"


@pytest.fixture(scope="module")
def bundle(run_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bundles")
    done = _gptnt("submission", str(run_dir), "--defuser", "oracle", "--out", str(out))
    assert done.returncode == 0, done.stderr
    (folder,) = out.iterdir()
    return folder


def test_the_bundle_has_gptnts_shape_and_validates(bundle: Path) -> None:
    assert sorted(p.name for p in bundle.iterdir()) == sorted([MANIFEST, PAYLOAD])
    raw = yaml.safe_load((bundle / MANIFEST).read_text(encoding="utf-8"))
    assert list(raw) == MANIFEST_KEYS
    assert [p["role"] for p in raw["players"]] == ["defuser", "expert"]
    for player in raw["players"]:
        assert set(player) == PLAYER_KEYS
        assert set(player["capabilities"]) == CAPABILITY_KEYS
        assert set(player["identity"]) == IDENTITY_KEYS
        # GPTNT's fingerprint rule, recomputed here from the written capabilities
        caps = {k: v for k, v in player["capabilities"].items() if k != "usage_limits"}
        assert player["fingerprint"] == stable_digest(caps)
    manifest = InteractiveSubmission.model_validate(raw)
    assert manifest.measured.suite_name == "single" and manifest.measured.suite_revision == 0
    table = pq.read_table(bundle / PAYLOAD)
    assert set(table.column_names) == COLUMNS
    assert table.num_rows == 1
    read = read_bundle(bundle)  # the schema and the bundle's own consistency
    assert len(read.experiments) == 1
    assert bundle.name == (f"{manifest.run_date:%Y%m%d}_oracle-privileged-scripted_"
                           f"{manifest.defuser.fingerprint[:8]}_single_0")  # fmt: skip


def test_the_rows_say_what_the_records_say(run_dir: Path, bundle: Path) -> None:
    (episode,) = [d for d in (run_dir / "episodes").iterdir() if ".oracle-oracle." in d.name]
    summary = json.loads((episode / "summary.json").read_text(encoding="utf-8"))
    started = json.loads((episode / "events.jsonl").read_text(encoding="utf-8").splitlines()[0])
    (row,) = read_bundle(bundle).experiments
    assert isinstance(row, SubmissionExperiment)
    assert row.outcome.value == summary["outcome"] and row.is_valid
    assert row.final_bomb_state.to_wire() == summary["final_state"]
    assert row.strike_count == summary["strikes"]
    assert row.num_modules_solved == sum(m["solved"] for m in summary["modules"])
    assert row.session_id == started["session_id"]
    assert row.seed == json.loads(started["mission"])["seed"]
    assert row.modules == ["Wires"] and row.mission_key == f"{row.seed}|Wires"
    assert row.communication_style == "sync"
    assert row.gptnt_version == started["harness"]["version"]
    assert row.pairing == "defuser=oracle--expert=oracle" and not row.defuser_has_manual
    assert row.experiment_descriptor.experiment_spec.expert_protocol is not None
    assert row.experiment_descriptor.experiment_spec.expert_protocol.include_manual
    # scripted players call no model: zero usage, not made up
    assert row.defuser_usage.requests == row.defuser_usage.input_tokens == 0
    # the ids our records do not have are null, not invented
    descriptor = row.experiment_descriptor
    assert descriptor.defuser_uuid is descriptor.expert_uuid is descriptor.game_uuid is None


def test_an_edited_bundle_does_not_check(bundle: Path, tmp_path: Path) -> None:
    copy = tmp_path / bundle.name
    shutil.copytree(bundle, copy)
    raw = yaml.safe_load((copy / MANIFEST).read_text(encoding="utf-8"))
    raw["players"][0]["capabilities"]["player_name"] = "someone-else"
    (copy / MANIFEST).write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    done = _gptnt("submission", "--check", str(copy))
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "fingerprint" in done.stderr
    assert _gptnt("submission", "--check", str(bundle)).returncode == 0


def _one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0]


def test_bad_input_is_one_line_and_exit_2(run_dir: Path, tmp_path: Path) -> None:
    out = str(tmp_path / "bundles")
    _one_line(_gptnt("submission", str(tmp_path / "nope"), "--out", out), "RUN_DIR", "nope")
    _one_line(_gptnt("submission", str(run_dir), "--out", out), "mixed runs", "--defuser")
    _one_line(_gptnt("submission", str(run_dir), str(TIMING_RUN), "--mode", "sync", "--out", out),
              "mixed runs", "fake-defuser", "oracle")  # fmt: skip
    _one_line(_gptnt("submission", str(TIMING_RUN), "--mode", "sync", "--out", out),
              "identity", "player config")  # fmt: skip
    unfinished = tmp_path / "unfinished"
    shutil.copytree(run_dir, unfinished)
    ledger = unfinished / "ledger.jsonl"
    kept = [line for line in ledger.read_text(encoding="utf-8").splitlines()
            if "oracle-oracle" not in line]  # fmt: skip
    ledger.write_text("\n".join(kept) + "\n", encoding="utf-8")
    _one_line(_gptnt("submission", str(unfinished), "--defuser", "oracle", "--out", out),
              "unfinished")  # fmt: skip
    torn = tmp_path / "torn"  # a turn line cut in half: its usage would be missing from the row
    shutil.copytree(run_dir, torn)
    (events,) = torn.glob("episodes/*oracle-oracle*/events.jsonl")
    lines = events.read_bytes().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if b'"kind":"turn"' in line)
    lines[at] = lines[at][: len(lines[at]) // 2] + b"\n"
    events.write_bytes(b"".join(lines))
    _one_line(_gptnt("submission", str(torn), "--defuser", "oracle", "--out", out),
              "unreadable", "whole records")  # fmt: skip
    assert not (tmp_path / "bundles").exists()  # nothing half-written


@pytest.mark.parametrize("name", ["gpt-5-2", "claude-sonnet-4-6", "qwen3-5-27b"])
def test_a_packaged_model_is_recorded_with_its_identity_and_mapped(name: str) -> None:
    from gptnt.players.config import load_player_config
    from gptnt.services.manager import EpisodeSpec, player_infos
    from gptnt.submission import capabilities, identity

    spec = EpisodeSpec(key="k", mission_id="Wires-234", mode="sync", defuser=name)
    info = player_infos(spec)[0]  # the Defuser as the manager records it
    config = load_player_config(name)
    assert config.identity is not None and info.identity == config.identity
    caps = capabilities(info)
    assert caps.player_name == info.policy and caps.player_type == "ai"
    assert caps.thinking_method == "thinking-out-loud" and caps.structured_output_mode is None
    assert caps.tokens_per_image == config.tokens_per_image
    assert caps.image_dimensions is not None
    assert (caps.image_dimensions.width, caps.image_dimensions.height) == config.image_size
    assert caps.usage_limits.input_tokens_limit == config.input_limit
    assert caps.enable_nobf_generation is config.execution_feedback
    assert caps.interaction_location_method == "set-of-marks" and caps.coordinate_mode is None
    assert identity(info) == config.identity


def test_a_bundle_with_a_mission_played_twice_does_not_check(bundle: Path, tmp_path: Path) -> None:
    """``--check`` refuses what the build refuses: the same mission and pairing twice (a
    retry left in, or a row copied to weigh a win twice), as GPTNT's coverage check does."""
    import pyarrow as pa
    from pyarrow import parquet as pq

    copy = tmp_path / bundle.name
    shutil.copytree(bundle, copy)
    rows = pq.read_table(copy / PAYLOAD).to_pylist()
    pq.write_table(pa.Table.from_pylist(rows + rows), copy / PAYLOAD)
    done = _gptnt("submission", "--check", str(copy))
    _one_line(done, "more than once", rows[0]["mission_key"])
