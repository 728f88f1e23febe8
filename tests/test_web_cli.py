"""The ``skat-web`` command (skat_env.cli.web, also ``python -m skat_env.web``): bad options
end it with a message and exit status 2 before anything is served; the real command
serves the page and the records it was given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from helpers import seeded_records  # noqa: E402

from skat_env.cli.web import main  # noqa: E402


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--opponents", "nobody", "random"], "unknown agent"),
        (["--opponents", "human", "random"], "terminal"),
        (["--opponents", "ppo:/no/such/model.zip", "random"], "no model file"),
        (["--records", "/no/such/file.jsonl"], "cannot read record file"),
        (["--port", "70000"], "--port"),
        (["--max-games", "0"], "--max-games"),
        (["--agent-workers", "0"], "--agent-workers"),
        (["--bogus"], "unrecognized"),
    ],
)
def test_cli_errors(argv: list[str], words: str, capsys, tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_cli_bad_record_file(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(seeded_records(1) + json.dumps({"deal": "x"}) + "\n")
    with pytest.raises(SystemExit):
        main(["--records", str(bad)])
    assert "bad.jsonl, line 2" in capsys.readouterr().err


@pytest.mark.slow
def test_python_m_skat_env_web_serves_the_page(tmp_path: Path) -> None:
    """The real command: prints the URL, serves the page and the preloaded records."""
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    records = tmp_path / "games.jsonl"
    records.write_text(seeded_records(2))
    cmd = [sys.executable, "-m", "skat_env.web", "--port", str(port), "--records", str(records)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        deadline = time.monotonic() + 20
        while True:
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
                time.sleep(0.1)
        assert b"<title>Skat</title>" in page
        config = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/config"))
        assert len(config["records"]) == 2 and config["opponents"] == ["heuristic", "heuristic"]
    finally:
        proc.terminate()
        proc.wait(10)


def test_cli_without_the_web_extra(monkeypatch, capsys) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "fastapi", None)  # import fastapi -> ImportError
    monkeypatch.delitem(sys.modules, "skat_env.web.app")
    with pytest.raises(SystemExit) as exc:
        main([])
    assert "pip install 'skat-env[web]'" in str(exc.value.code)


def test_a_record_file_that_is_not_utf8(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "games.sgf"
    bad.write_bytes("(;GM[Skat]P0[Jürgen])".encode("latin-1"))
    with pytest.raises(SystemExit) as exc:
        main(["--records", str(bad)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "not UTF-8 text: byte 0xfc" in err and "Traceback" not in err
