"""What an uploaded rules file may be before it is parsed: its kind, its size, and text that is text.

The pages («Правила», «Что изменилось») check uploads here, so both refuse the same files with the
same Russian reasons, and the limits are stated once.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules_index.importers.dispatch import KINDS_TEXT, kind_of
from rules_index.sources import utf16_codec

MAX_FILE_MB = 20  # a PDF or Word file
# Text and web pages are all text: 5 MB is a whole rules book several times over.
MAX_TEXT_MB = 5
MAX_TOTAL_BYTES = 40 * 1024 * 1024


def check_upload(files: Sequence[tuple[str, bytes]]) -> str | None:
    """A Russian reason to refuse the files before parsing them, or None when they may be parsed."""
    total = 0
    for name, data in files:
        if not data:
            return f"Файл «{name}» пуст."
        kind = kind_of(name, data)
        limit = MAX_FILE_MB if kind in ("pdf", "docx") else MAX_TEXT_MB
        if len(data) > limit * 1024 * 1024:
            return f"Файл «{name}» больше {limit} МБ — для текста правил это слишком много."
        # UTF-16 (with a BOM or without one) has zero bytes and is text all the same.
        if kind in ("text", "html") and b"\x00" in data[:65536] and utf16_codec(data) is None:
            return (
                f"Файл «{name}» не похож на текст (в нём есть двоичные данные). Нужен текст правил: "
                f"{KINDS_TEXT}."
            )
        total += len(data)
    if total > MAX_TOTAL_BYTES:
        return f"Файлы вместе больше {MAX_TOTAL_BYTES // (1024 * 1024)} МБ."
    return None
