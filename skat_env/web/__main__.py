"""``python -m skat_env.web``: the ``skat-web`` command, whose ``main`` is
:func:`skat_env.cli.web.main` (run as a module, so that this layer imports no CLI)."""

import runpy

if __name__ == "__main__":
    runpy.run_module("skat_env.cli.web", run_name="__main__", alter_sys=True)
