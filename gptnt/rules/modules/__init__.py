"""One file per module type: its rule tables (``<X>Rules`` + ``V1``), ``elements`` and ``solve``.

Every module file exports the same three names, used through ``gptnt.rules.oracle``:

- ``V1``: the v1 manual's tables (a frozen dataclass);
- ``elements(module) -> list[str]``: the module's interactables when zoomed in, in the order the
  simulator paints them into the segmentation mask;
- ``solve(module, edgework, rules, *, strikes) -> list[Step]``: the steps that solve the current
  stage (or the whole module when it has no stages) from the described state.
"""
