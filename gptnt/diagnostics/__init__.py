"""Offline diagnostics: single-step tests generated from the ruleset and the simulator.

The paper isolates the capabilities behind play with offline tests (its §9 and Appendix G):
**Manual VQA** (the Expert reading and applying the manual), **Simulator VQA** (the Defuser
reading frames), **Localisation** (the Defuser pointing at an element, by set-of-marks label or
by coordinates) and **contamination** probes (the rules without the manual). Its datasets are
fixed files; ours are generated — every answer comes from the ruleset and the simulator's own
state, never from a model — for any seed, rule seed and number of questions.

    gptnt diag build --out diag/            # the three datasets at the paper's sizes
    gptnt diag run diag/manual_vqa-… --player gpt-5-2 --out results/
    gptnt diag report results/… --out report/   # + Markdown, CSV, one offline HTML page
"""

from gptnt.diagnostics._ask import Asked, Plan, ask
from gptnt.diagnostics._build import build as build_datasets
from gptnt.diagnostics._dataset import (
    PAPER_COUNTS,
    TASKS,
    Manifest,
    Question,
    Target,
    read_dataset,
)
from gptnt.diagnostics._report import GROUPINGS, Results, read_results, write_report
from gptnt.diagnostics._report import rows as report_rows
from gptnt.diagnostics._run import (
    Answer,
    Answerer,
    ModelAnswerer,
    RandomAnswerer,
    RunSpec,
    TruthAnswerer,
    read_answers,
    read_spec,
    run,
)

__all__ = [
    "GROUPINGS",
    "PAPER_COUNTS",
    "TASKS",
    "Answer",
    "Answerer",
    "Asked",
    "Manifest",
    "ModelAnswerer",
    "Plan",
    "Question",
    "RandomAnswerer",
    "Results",
    "RunSpec",
    "Target",
    "TruthAnswerer",
    "ask",
    "build_datasets",
    "read_answers",
    "read_dataset",
    "read_results",
    "read_spec",
    "report_rows",
    "run",
    "write_report",
]
