"""Play Skat against agents and watch records in a browser: ``python -m skat_env.web``.

A FastAPI app (:func:`create_app`) serving one static page; see ``docs/web.md``.
Needs the ``web`` extra (fastapi, uvicorn).
"""

from __future__ import annotations

from .app import SkatServer, create_app

__all__ = ["SkatServer", "create_app"]
