"""The server's own upload limit (issue 26 item 2): Streamlit's `server.maxUploadSize`, set in
.streamlit/config.toml and in `make run`'s flags, is the largest file any page takes, so a body
bigger than that is refused by the server while it streams in (before, only the browser checked
a page's limit, and a 60 MB body sent directly was taken into memory)."""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path

import casebook
from cardbase import readers
from rules_index import uploads

ROOT = Path(__file__).resolve().parent.parent
MB = 1024 * 1024


def _largest_page_limit_mb() -> int:
    limits = [uploads.MAX_FILE_MB, uploads.MAX_TEXT_MB, readers.MAX_FILE_BYTES / MB, casebook.MAX_BYTES / MB]
    return math.ceil(max(limits))


def test_the_server_refuses_what_no_page_takes() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["maxUploadSize"] == _largest_page_limit_mb()


def test_make_run_passes_the_same_limit() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(r"--server\.maxUploadSize (\d+)", makefile)
    assert found is not None and int(found.group(1)) == _largest_page_limit_mb()


def test_the_readme_states_the_server_wide_bounds_the_code_applies() -> None:
    from app_pages.shared import uploads
    from rulings import limits

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"**{limits.PARSE_CPU_S} с процессорного времени и" in readme
    assert f"{limits.PARSE_MEMORY_MB // 1024} ГБ памяти** на файл" in readme
    assert f"(сценарий и файл стола — {uploads.DESK.cpu_s} с и {uploads.DESK.memory_mb} МБ)" in readme
    assert limits.PARSES_AT_ONCE == 2 and "**двух разборов" in readme
    assert f"~**{limits.HELD_MB} МБ** и {limits.HELD_ITEMS} штук" in readme
    assert f"{limits.TAB_FILES_MB} МБ на вкладку и {limits.SERVER_FILES_MB} МБ на всех" in readme
    assert f"Больше {_largest_page_limit_mb()} МБ сервер не принимает вовсе" in readme
