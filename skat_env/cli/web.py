"""``skat-web`` (also ``python -m skat_env.web``): serve the Skat page.

    skat-web --opponents heuristic random --records games.jsonl --port 8000

Bad options, unknown agent specs and unreadable record files end the command with a
message and exit status 2, before anything is served.
"""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Sequence

from skat_env.cli.options import seed_arg

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def _parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        description="Play Skat against agents and watch game records in a browser.",
    )
    p.add_argument("--host", default=DEFAULT_HOST, help="address to listen on (%(default)s)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (%(default)s)")
    p.add_argument(
        "--opponents",
        nargs=2,
        metavar="SPEC",
        default=["heuristic", "heuristic"],
        help="the two agents to play against: heuristic, random, ppo, ppo:PATH, pimc, ... "
        "(default: heuristic heuristic)",
    )
    p.add_argument(
        "--records",
        nargs="+",
        metavar="FILE",
        default=[],
        help="record files to offer for watching: JSON lines (skat_env.core.records) or ISS .sgf",
    )
    p.add_argument("--max-games", type=int, default=256, help="games kept in memory (%(default)s)")
    p.add_argument(
        "--seed", type=seed_arg, default=None, help="seed for the deals (default: random)"
    )
    p.add_argument(
        "--table-records",
        metavar="FILE",
        help="append the finished games of tables with people to FILE (JSON lines)",
    )
    p.add_argument(
        "--agent-workers",
        type=int,
        default=4,
        help="threads computing agent moves; each holds one search table (%(default)s)",
    )
    return p


def _check_port(parser: argparse.ArgumentParser, host: str, port: int) -> None:
    if not 1 <= port <= 65535:
        parser.error(f"--port must be 1..65535, got {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        parser.error(f"--host {host!r} is not an address of this machine: {e}")
    family, _, _, _, addr = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as e:
            parser.error(f"cannot listen on {host}:{port}: {e.strerror or e}")


def build_server(args: argparse.Namespace, parser: argparse.ArgumentParser):
    """The :class:`SkatServer` for parsed options; ``parser.error`` for bad ones."""
    from skat_env.agents.registry import AgentSpecError, make_agent
    from skat_env.web.app import SkatServer
    from skat_env.web.records import RecordFileError, WatchRecord, read_record_file

    if args.max_games < 1:
        parser.error(f"--max-games must be at least 1, got {args.max_games}")
    if args.agent_workers < 1:
        parser.error(f"--agent-workers must be at least 1, got {args.agent_workers}")
    for spec in args.opponents:
        try:
            agent = make_agent(spec)
        except (AgentSpecError, ImportError) as e:
            parser.error(f"--opponents: {e}")
        if agent.interactive:
            parser.error(f"--opponents: {spec!r} needs a terminal; choose an automatic agent")
    records: list[WatchRecord] = []
    for path in args.records:
        try:
            found, notes = read_record_file(path)
        except RecordFileError as e:
            parser.error(f"--records: {e}")
        records += found
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
    return SkatServer(
        args.opponents,
        records,
        args.max_games,
        args.seed,
        agent_workers=args.agent_workers,
        table_records=args.table_records,
    )


def main(argv: Sequence[str] | None = None, prog: str = "skat-web") -> None:
    """Run ``skat-web`` (``prog`` names the command in messages)."""
    parser = _parser(prog)
    args = parser.parse_args(argv)
    try:
        import uvicorn

        from skat_env.web.app import create_app, limit_heap_growth
    except ImportError as e:
        sys.exit(f"{prog}: skat_env.web needs the web extra: pip install 'skat-env[web]' ({e})")
    limit_heap_growth()
    server = build_server(args, parser)
    _check_port(parser, args.host, args.port)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Skat: open http://{host}:{args.port}/ in a browser (Ctrl-C stops)", flush=True)
    uvicorn.run(create_app(server), host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":  # python -m skat_env.web runs this module (its __main__ shim)
    main(prog="python -m skat_env.web")
