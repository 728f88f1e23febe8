"""Play Skat against agents and watch records in a browser: ``python -m skat_env.web``.

A FastAPI app (:func:`create_app`) serving one static page; see ``docs/web.md``.
Needs the ``web`` extra (fastapi, uvicorn); imported lazily, so the command can say so.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SkatServer", "create_app"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
