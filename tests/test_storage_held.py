"""What uploads hold in memory, bounded server-wide (issue 26): least recently used dropped first,
a closed window's upload released with it."""

from __future__ import annotations

import gc
import threading

from storage import held


def test_the_least_recently_used_goes_first_when_bytes_run_out() -> None:
    room = held.Held(max_bytes=300, max_items=10)
    for key in "abc":
        assert room.put(key, key.upper(), 100)
    assert room.get("a") == "A"  # a is now the most recently used
    assert room.put("d", "D", 100)
    assert room.get("b") is None
    assert [room.get(k) for k in "acd"] == ["A", "C", "D"]
    assert room.stats() == held.Stats(items=3, bytes=300, dropped=1)


def test_the_count_is_bounded_as_well_as_the_bytes() -> None:
    room = held.Held(max_bytes=10**9, max_items=2)
    for key in "abc":
        room.put(key, key, 1)
    assert room.get("a") is None
    assert room.stats().items == 2


def test_an_item_larger_than_the_budget_is_not_kept_and_drops_nothing() -> None:
    room = held.Held(max_bytes=100, max_items=10)
    room.put("a", "A", 60)
    assert not room.put("huge", "H", 101)
    assert room.get("a") == "A"
    assert room.ticket("H", 101, "большой.pdf") is None


def test_replacing_a_key_does_not_count_it_twice() -> None:
    room = held.Held(max_bytes=100, max_items=10)
    room.put("a", 1, 80)
    room.put("a", 2, 80)
    assert room.get("a") == 2
    assert room.stats().bytes == 80


def test_a_ticket_finds_its_result_until_it_is_dropped_for_room() -> None:
    room = held.Held(max_bytes=200, max_items=10)
    mine = room.ticket("мои правила", 100, "rules.pdf")
    assert mine is not None and room.redeem(mine) == "мои правила"
    others = [room.ticket(f"правила {k}", 100, f"{k}.pdf") for k in range(2)]
    assert room.redeem(mine) is None
    assert mine.label == "rules.pdf"
    assert all(t is not None and room.redeem(t) for t in others)


def test_a_closed_window_releases_its_upload() -> None:
    room = held.Held(max_bytes=1000, max_items=10)
    ticket = room.ticket("правила", 500, "rules.pdf")
    assert room.stats().bytes == 500
    del ticket
    gc.collect()
    assert room.stats() == held.Stats(items=0, bytes=0, dropped=0)


def test_many_windows_at_once_never_pass_the_budget() -> None:
    room = held.Held(max_bytes=1000, max_items=50)
    kept: list[object] = []

    def window(k: int) -> None:
        for n in range(50):
            kept.append(room.ticket((k, n), 37, "f"))
            assert room.stats().bytes <= 1000

    threads = [threading.Thread(target=window, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert room.stats().bytes <= 1000


def test_a_window_gone_for_good_drops_all_it_holds() -> None:
    room = held.Held(max_bytes=1000, max_items=10)
    mine = [
        room.ticket("правила", 100, "a.pdf", owner="окно 1"),
        room.ticket("база", 50, "b.json", owner="окно 1"),
    ]
    theirs = room.ticket("правила", 100, "c.pdf", owner="окно 2")
    assert sorted(room.owners()) == ["окно 1", "окно 2"]  # type: ignore[type-var]
    assert room.drop_owner("окно 1") == 2
    assert all(t is not None and room.redeem(t) is None for t in mine)
    assert theirs is not None and room.redeem(theirs) == "правила"
    assert room.owners() == ["окно 2"]
    assert room.drop_owner("окно 1") == 0


def test_an_owner_whose_results_were_all_dropped_for_room_is_forgotten() -> None:
    room = held.Held(max_bytes=100, max_items=10)
    kept = room.ticket("старое", 100, "a.pdf", owner="окно 1")
    newer = room.ticket("новое", 100, "b.pdf", owner="окно 2")
    assert kept is not None and newer is not None
    assert room.owners() == ["окно 2"]
