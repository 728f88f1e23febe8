"""Train a Skat agent with MaskablePPO (``skat-train``); see :mod:`skat_env.cli.train`.

python train.py                        # the default run: <= 15 minutes on two CPU cores
python train.py --name long --timesteps 20000000 --max-minutes 120
python train.py --help
"""

import sys

from skat_env.cli.train import main

if __name__ == "__main__":
    sys.exit(main(prog="train.py"))
