"""Command-line front end of the league (``skat-league``); see :mod:`skat_env.cli.league`."""

import sys

from skat_env.cli.league import main

if __name__ == "__main__":
    sys.exit(main(prog="league.py"))
