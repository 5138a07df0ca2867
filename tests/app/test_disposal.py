"""``Disposal``: leftovers are freed on the GUI thread within a time budget per event-loop turn,
whichever thread handed them over, and one waiting for its holders holds up no other."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from itertools import pairwise

from memgraph_gui.app import disposal
from memgraph_gui.app.disposal import Disposal
from memgraph_gui.app.qt import QTimer


def _slow_steps(count: int, ran: list[tuple[float, str]]) -> Iterator[bool]:
    for _ in range(count):
        time.sleep(0.001)
        ran.append((time.perf_counter(), threading.current_thread().name))
        yield True


def test_steps_run_on_the_gui_thread_a_budget_per_turn(qtbot) -> None:
    bin_ = Disposal()
    ran: list[tuple[float, str]] = []
    ticks: list[float] = []
    ticker = QTimer()
    ticker.timeout.connect(lambda: ticks.append(time.perf_counter()))
    ticker.start(1)
    worker = threading.Thread(target=lambda: bin_.put(_slow_steps(60, ran)), name="writer")
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: bin_.pending() == 0, timeout=5_000)
    ticker.stop()
    assert len(ran) == 60 and {name for _, name in ran} == {threading.current_thread().name}
    # the event loop ran between the turns: never more steps in a row than fit in a budget
    times = [t for t, _ in ran]
    inside = [t for t in ticks if times[0] <= t <= times[-1]]
    assert len(inside) >= 5, "the event loop hardly ran while the steps did"
    bounds = [times[0], *inside, times[-1] + 1]
    in_a_row = [sum(1 for x in times if a <= x < b) for a, b in pairwise(bounds)]
    assert max(in_a_row) <= disposal.BUDGET / 0.001 + 2, in_a_row


def test_a_leftover_still_held_waits_without_holding_up_the_others(qtbot) -> None:
    bin_ = Disposal()
    held = {"reader": True}
    freed: list[str] = []

    def waiting() -> Iterator[bool]:
        while held["reader"]:
            yield False
        freed.append("waited")
        yield True

    def quick() -> Iterator[bool]:
        freed.append("quick")
        yield True

    bin_.put(waiting())
    bin_.put(quick())
    qtbot.waitUntil(lambda: freed == ["quick"], timeout=2_000)
    assert bin_.pending() == 1  # still waiting, at the slow pace, not a busy loop
    held["reader"] = False
    qtbot.waitUntil(lambda: bin_.pending() == 0, timeout=2_000)
    assert freed == ["quick", "waited"]


def test_flush_frees_what_it_can_at_once(qtbot) -> None:
    bin_ = Disposal()
    ran: list[tuple[float, str]] = []
    bin_.put(_slow_steps(5, ran))
    bin_.put(iter([False, False, True]))  # still held: let go of as it is
    bin_.flush()
    assert len(ran) == 5 and bin_.pending() == 0
