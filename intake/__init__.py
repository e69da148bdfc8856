"""What comes in from outside, bounded and cleaned where it comes in (issue 26).

Layer 0: it imports nothing from the project, so every package may use it.

- `worker`: untrusted files parsed in a bounded child process (CPU seconds, memory, answer size,
  wall clock, cancelled with its window), at most a few at once;
- `held`: what players' window-only uploads hold in memory, bounded server-wide (least recently
  used dropped first);
- `text`: lone surrogates and control characters refused (files) or replaced (links, typed
  words), clean text normalised to NFC;
- `numbers`: numbers in links read as ASCII digits within bounds.
"""

from __future__ import annotations

from intake import held, numbers, text, worker

__all__ = ["held", "numbers", "text", "worker"]
