"""``python -m skat_env.agents``: every agent kind and its options (docs/agents.md)."""

from .specs import markdown

print(markdown(), end="")
