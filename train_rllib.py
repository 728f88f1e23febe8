"""Command-line front end of RLlib training (``skat-train-rllib``); see
:mod:`skat_env.cli.train_rllib`."""

import sys

from skat_env.cli.train_rllib import main

if __name__ == "__main__":
    sys.exit(main())
