"""`gptnt suite plan` against the tokens the paper published for every experiment.

The paper's Table H.24 gives, per experiment and model, the number of seat-episodes n (an
episode counts once per seat the model holds), the input and output tokens over every request,
and the cost without caching. This script plans the same experiments with the shipped suites
and the five shipped player configs and prints, row by row, the paper's numbers, ours and the
ratios. The behavioural assumptions are in ``configs/plan.yaml``.

Usage::

    python scripts/plan_vs_paper.py            # the table
    python scripts/plan_vs_paper.py --check    # exit 1 if a ratio leaves [1/1.5, 1.5]
"""

from __future__ import annotations

import argparse
import sys

from gptnt.suites import Selection, expand, load_suite, plan

PLAYERS = ["claude-sonnet-4-6", "gpt-5-2", "gemini-3-flash", "qwen3-5-27b", "internvl3-5-38b"]

# Table H.24: experiment -> player -> (n, input tokens, output tokens, uncached cost in USD).
PAPER: dict[str, dict[str, tuple[int, int, int, float]]] = {
    "async, multi, self-play": {
        "claude-sonnet-4-6": (20, 9_998_492, 79_425, 31.20),
        "gpt-5-2": (20, 12_802_985, 57_564, 14.30),
        "gemini-3-flash": (20, 27_882_546, 42_095, 8.36),
        "qwen3-5-27b": (20, 41_203_903, 158_183, 0.0),
        "internvl3-5-38b": (20, 52_816_695, 89_090, 0.0),
    },
    "async, single, self-play": {
        "claude-sonnet-4-6": (220, 69_502_082, 511_918, 216.00),
        "gpt-5-2": (220, 51_645_133, 500_257, 105.00),
        "gemini-3-flash": (220, 66_767_165, 268_274, 36.80),
        "qwen3-5-27b": (220, 100_524_443, 965_880, 0.0),
        "internvl3-5-38b": (220, 125_536_094, 574_853, 0.0),
    },
    "sync, multi, self-play": {
        "claude-sonnet-4-6": (20, 9_219_128, 83_263, 28.90),
        "gpt-5-2": (20, 19_544_304, 69_972, 20.80),
        "gemini-3-flash": (20, 25_880_604, 45_170, 8.32),
        "qwen3-5-27b": (20, 33_965_559, 174_904, 0.0),
        "internvl3-5-38b": (20, 26_847_549, 94_501, 0.0),
    },
    "sync, single, other-play": {
        "claude-sonnet-4-6": (880, 338_729_041, 3_325_371, 1066.00),
        "gpt-5-2": (880, 593_946_839, 2_154_517, 633.00),
        "gemini-3-flash": (880, 600_336_971, 1_555_825, 192.00),
        "qwen3-5-27b": (880, 630_010_233, 3_870_496, 0.0),
        "internvl3-5-38b": (880, 559_989_035, 2_568_117, 0.0),
    },
    "sync, single, self-play": {
        "claude-sonnet-4-6": (220, 71_361_568, 662_936, 224.00),
        "gpt-5-2": (220, 122_965_651, 527_790, 133.00),
        "gemini-3-flash": (220, 153_748_981, 324_218, 48.90),
        "qwen3-5-27b": (220, 176_796_830, 1_112_086, 0.0),
        "internvl3-5-38b": (220, 144_868_042, 637_688, 0.0),
    },
    "sync, single, solo-no-manual": {  # the paper's "Parametric" row
        "claude-sonnet-4-6": (110, 12_757_175, 429_406, 44.70),
        "gpt-5-2": (110, 21_227_156, 212_506, 24.90),
        "gemini-3-flash": (110, 17_876_072, 119_206, 7.28),
        "qwen3-5-27b": (110, 35_737_231, 600_342, 0.0),
        "internvl3-5-38b": (110, 27_499_363, 229_359, 0.0),
    },
    "sync, single, solo": {
        "claude-sonnet-4-6": (110, 30_690_782, 398_573, 98.10),
        "gpt-5-2": (110, 59_958_861, 168_656, 63.30),
        "gemini-3-flash": (110, 97_779_089, 123_501, 30.90),
        "qwen3-5-27b": (110, 81_786_069, 493_494, 0.0),
        "internvl3-5-38b": (110, 87_283_493, 336_348, 0.0),
    },
}
SUITES = {  # which shipped suite (and mode) plays each experiment
    "async, multi, self-play": ("multi", "async"),
    "async, single, self-play": ("single", "async"),
    "sync, multi, self-play": ("multi", "sync"),
    "sync, single, other-play": ("cross-play", "sync"),
    "sync, single, self-play": ("cross-play", "sync"),
    "sync, single, solo-no-manual": ("solo-no-manual", "sync"),
    "sync, single, solo": ("solo", "sync"),
}


def rows() -> list[tuple[str, str, tuple[int, int, int, float], object]]:
    planned = {}
    for suite, mode in sorted(set(SUITES.values())):
        episodes = expand(load_suite(suite), Selection(players=PLAYERS, modes=[mode]))
        planned.update(plan(episodes).rows)
    return [
        (group, player, paper, planned[(group, player)])
        for group, per_player in PAPER.items()
        for player, paper in per_player.items()
    ]


def _m(x: float) -> str:
    return f"{x / 1e6:8.2f}M"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 beyond 1.5x")
    args = parser.parse_args()
    worst = 1.0
    print(f"{'experiment':<30}{'player':<19}{'n':>5}{'paper in':>10}{'plan in':>10}{'×':>6}"
          f"{'paper out':>10}{'plan out':>10}{'×':>6}{'paper $':>9}{'plan $':>9}"
          f"{'cached $':>9}")  # fmt: skip
    for group, player, (n, tin, tout, cost), est in rows():
        rin, rout = est.input / tin, est.output / tout  # type: ignore[attr-defined]
        worst = max(worst, rin, 1 / rin, rout, 1 / rout)
        plan_cost = "n/a" if est.cost is None else f"{est.cost:.2f}"  # type: ignore[attr-defined]
        cached = "n/a" if est.cost_cached is None else f"{est.cost_cached:.2f}"  # type: ignore[attr-defined]
        assert est.seats == n, (group, player, est.seats, n)  # type: ignore[attr-defined]
        print(f"{group:<30}{player:<19}{n:>5}{_m(tin):>10}{_m(est.input):>10}{rin:>6.2f}"  # type: ignore[attr-defined]
              f"{tout / 1e3:>9.0f}k{est.output / 1e3:>9.0f}k{rout:>6.2f}{cost:>9.2f}"  # type: ignore[attr-defined]
              f"{plan_cost:>9}{cached:>9}")  # fmt: skip
    print(f"worst ratio: {worst:.2f}x")
    if args.check and worst > 1.5:
        sys.exit(1)


if __name__ == "__main__":
    main()
