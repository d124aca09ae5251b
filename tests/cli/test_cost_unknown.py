"""A model without a price costs "unknown", never $0.00: in the plan, in the progress line,
and in the records' sums (a sum with an unknown part is unknown)."""

from __future__ import annotations

from pathlib import Path

from gptnt.cli.suite import plan_line, plan_table
from gptnt.records import add_costs, known_cost, usd
from gptnt.services.manager.suite import Progress
from gptnt.suites import Selection, expand, load_suite, plan


def test_the_plan_of_an_unpriced_model_says_unknown(tmp_path: Path) -> None:
    config = tmp_path / "unpriced.yaml"
    config.write_text("model: vllm:no-such-price\nbase_url: http://127.0.0.1:9/v1\n")
    episodes = expand(load_suite("single"), Selection(players=[str(config)],
                                                      only=["Wires-234"], modes=["sync"]))  # fmt: skip
    p = plan(episodes, prices={})
    line = plan_line(p)
    assert p.total.cost is None and "estimated cost unknown" in line
    assert "$0.00" not in line and "no price in configs/prices.yaml for" in line
    table = plan_table(p)
    cells = [str(c) for column in table.columns for c in column._cells]
    assert "unknown" in cells and "$0.00" not in cells


def test_progress_and_sums_keep_unknown_apart_from_zero() -> None:
    progress = Progress(total=2, unpriced=True)
    assert " unknown spent" in progress.line() and "$0.00" not in progress.line()
    progress.spent = 1.5
    assert "$1.50 + unknown spent" in progress.line()
    assert "$0.00 spent" in Progress(total=1).line()  # scripted players are free, and known
    assert add_costs([0.5, None]) is None and add_costs([0.5, 0.25]) == 0.75
    assert known_cost([0.5, None]) == (0.5, True)
    assert usd(None) == "unknown" and usd(0.0) == "$0.00"
