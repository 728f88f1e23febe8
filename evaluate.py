"""Duplicate tournaments between Skat agents (``skat-evaluate``); see :mod:`skat_env.cli.evaluate`.

python evaluate.py --agents heuristic random random --deals 2000 --seed 0
python evaluate.py --agents human heuristic heuristic --deals 1     # play in the terminal
"""

import sys

from skat_env.cli.evaluate import main

if __name__ == "__main__":
    sys.exit(main(prog="evaluate.py"))
