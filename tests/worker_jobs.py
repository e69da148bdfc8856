"""Jobs for the bounded worker's tests (tests/test_storage_worker.py): each misbehaves in one way.

They live in a module of their own, importing nothing heavy, because the worker's child imports a
job by its module and name.
"""

from __future__ import annotations

import os
import signal
import time
import types
from collections.abc import Callable, Mapping


class Odd(Exception):
    """An exception whose constructor wants more than it keeps: it pickles but does not unpickle."""

    def __init__(self, a: str, b: str) -> None:
        super().__init__(f"{a}/{b}")


def echo(value: object) -> object:
    return value


def frozen(items: dict[str, int]) -> Mapping[str, Mapping[str, int]]:
    return types.MappingProxyType({"inner": types.MappingProxyType(items)})


def spin() -> None:
    while True:
        pass


def eat() -> None:
    kept = []
    while True:
        kept.append(bytearray(16 * 1024 * 1024))


def big(megabytes: int) -> bytes:
    return b"x" * (megabytes * 1024 * 1024)


def sleep(seconds: float) -> str:
    time.sleep(seconds)
    return "woke"


def fail(message: str) -> None:
    raise ValueError(message)


def fail_oddly() -> None:
    raise Odd("первое", "второе")


def crash() -> None:
    os.kill(os.getpid(), signal.SIGSEGV)


def count(steps: int, progress: Callable[[float], None]) -> int:
    for k in range(steps):
        progress(k / steps)
        time.sleep(0.25)
    return steps


def pid() -> int:
    return os.getpid()


class Garbled(Exception):
    """An exception rebuilt from its message as if it were a list (ScenarioError did this)."""

    def __init__(self, parts: object) -> None:
        self.parts = list(parts)  # type: ignore[call-overload]
        super().__init__("\n".join(str(p) for p in self.parts))


def fail_garbled() -> None:
    raise Garbled(["в файле три ошибки"])
