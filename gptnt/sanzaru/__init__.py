"""SANZARU: three agents with split senses — Deaf, Mute, Blind — defuse bombs together.

Deaf sees the bomb and can speak and gesture but hears nothing; Mute reads the manual and can
only gesture; Blind feels the bomb, is the only one who acts, and hears speech but cannot see
gestures. Seven puzzle families (one coordination ability each), 24 variants, 120 instances;
an oracle team with a fixed protocol, a random team, model teams through the KTANE backends;
failure coding of every loss from the record. See ``docs/sanzaru.md``.
"""

from gptnt.sanzaru._bomb import FAMILIES, Bomb, Variant, generate, instances, variant, variants
from gptnt.sanzaru._coding import FAILURE_MODES, FLAGS, STAGES, Coded, code_loss
from gptnt.sanzaru._game import TURN_ORDERS, Referee, SanzaruRole
from gptnt.sanzaru._judge import Judgement, judge
from gptnt.sanzaru._report import ENDINGS
from gptnt.sanzaru._report import figures as report_figures
from gptnt.sanzaru._report import tables as report_tables
from gptnt.sanzaru._run import Team, play, read_summaries, suite
from gptnt.sanzaru._teams import HINTS

__all__ = [
    "ENDINGS",
    "FAILURE_MODES",
    "FAMILIES",
    "FLAGS",
    "HINTS",
    "STAGES",
    "TURN_ORDERS",
    "Bomb",
    "Coded",
    "Judgement",
    "Referee",
    "SanzaruRole",
    "Team",
    "Variant",
    "code_loss",
    "generate",
    "instances",
    "judge",
    "play",
    "read_summaries",
    "report_figures",
    "report_tables",
    "suite",
    "variant",
    "variants",
]
