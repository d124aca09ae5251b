"""One file per module kind, named by the stem of its registry row: its rule tables
(``<X>Rules`` and ``V1``, the v1 manual's) and the functions of ``gptnt.rules._file.RuleFile`` —
``tables``, ``elements``, ``solve``, ``mistakes``, ``pressed`` — which the oracle calls through
``gptnt.rules.oracle.rule_file`` (docs/kinds.md).
"""
