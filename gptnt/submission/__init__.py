"""``gptnt submission``: a run's records as the bundle GPTNT's leaderboard takes
(docs/submission.md). ``build`` maps episodes to the manifest and rows, ``write_bundle`` writes
them, ``read_bundle`` reads a bundle back and checks it against the schema and itself."""

from __future__ import annotations

from gptnt.submission._build import (
    build,
    capabilities,
    experiment,
    identity,
    refuse_damaged,
    slugify,
)
from gptnt.submission._bundle import (
    MANIFEST,
    PAYLOAD,
    Bundle,
    bundle_name,
    bundle_problems,
    read_bundle,
    write_bundle,
)
from gptnt.submission._schema import (
    SCHEMA_VERSION,
    InteractiveSubmission,
    PlayerCapabilities,
    SubmissionExperiment,
    SubmissionPlayer,
    Submitter,
    stable_digest,
)

__all__ = [
    "MANIFEST",
    "PAYLOAD",
    "SCHEMA_VERSION",
    "Bundle",
    "InteractiveSubmission",
    "PlayerCapabilities",
    "SubmissionExperiment",
    "SubmissionPlayer",
    "Submitter",
    "build",
    "bundle_name",
    "bundle_problems",
    "capabilities",
    "experiment",
    "identity",
    "read_bundle",
    "refuse_damaged",
    "slugify",
    "stable_digest",
    "write_bundle",
]
