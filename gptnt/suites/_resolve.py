"""A suite made ready to plan or play: its episodes with the manual each will read resolved,
and its rule seeds checked against the missions played under them."""

from __future__ import annotations

from pathlib import Path

from gptnt.suites._format import Suite, load_suite
from gptnt.suites._grid import Selection, SuiteEpisode, expand


def resolve_episodes(ref: str, selection: Selection) -> tuple[Suite, list[SuiteEpisode], list[str]]:
    """The suite's episodes, each with the manual it will read resolved (``paper``: the
    official manual if imported, else the generated one), and the notices to print once every
    input is checked (a fallback to the generated manual is a condition of the run)."""
    from gptnt.manual import resolve_source
    from gptnt.players.scripted import SCRIPTED

    suite = load_suite(ref)
    episodes = []
    notices: list[str] = []
    for ep in expand(suite, selection):
        source, notice = resolve_source(ep.manual, ep.rule_seed)
        # The manual's reader: the Expert, or the solo player; a scripted one reads the rules.
        scripted = SCRIPTED["expert"] if ep.expert is not None else SCRIPTED["defuser"]
        read = not ep.no_manual and (ep.expert or ep.defuser) not in scripted
        if notice and notice not in notices and read:
            notices.append(notice)
        episodes.append(ep.model_copy(update={"manual": source}) if source != ep.manual else ep)
    return suite, episodes, notices


def check_rule_seeds(episodes: list[SuiteEpisode], pools: Path | None) -> None:
    """Every rule seed agrees with the missions played under it and has its tables (one line
    naming the flag otherwise); the pools file reaches every service started from here."""
    from gptnt.missions import get_mission
    from gptnt.preflight import use_rule_seed

    by_seed: dict[int, set[str]] = {}
    for ep in episodes:
        by_seed.setdefault(ep.rule_seed, set()).add(ep.mission_id)
    for seed, missions in by_seed.items():
        use_rule_seed(seed, pools, [get_mission(m) for m in sorted(missions)])
