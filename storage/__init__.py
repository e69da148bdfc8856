"""Uploaded files kept on the server, content-addressed: what the rules versions
(`rules_index.versions`) and the card bases (`cardbase.store`) share. Beside it, what every upload
goes through before a page shows it (issue 26), imported by their module names:
`storage.worker` (the bounded worker that parses an untrusted file), `storage.held` (what uploads
hold in memory, one budget per server) and `storage.clean` (clean text where files and links come in).

Layer 0: it imports nothing from the project, so any package may build its store on it. The
domain parts stay with the domain: what an item's meta.json says besides its files, how an item is
loaded, and the Russian words its messages use (see `files.Wording`).
"""

from __future__ import annotations

from storage.files import FileStore, Stored, StoredFile, Wording, content_id, is_content_id, local_time, now

__all__ = ["FileStore", "Stored", "StoredFile", "Wording", "content_id", "is_content_id", "local_time", "now"]
