"""gptnt: the GPTNT benchmark harness (Keep Talking and Nobody Explodes for two LLM agents)."""
