"""The app layer changes process-wide settings only when the window's entry point opted in."""

from __future__ import annotations

import gc
import sys

from memgraph_gui.app import layout_job, process_tuning


def test_an_untuned_process_keeps_its_collector_and_switch_interval() -> None:
    assert not process_tuning.tuned()  # importing AppModel or the views tunes nothing
    interval = sys.getswitchinterval()
    with process_tuning.bulk_work():
        assert gc.isenabled() and sys.getswitchinterval() == interval
    layout_job._share_the_gil(True)
    assert sys.getswitchinterval() == interval


def test_the_window_opts_in_and_gets_everything_back_after() -> None:
    interval = sys.getswitchinterval()
    process_tuning.tune_process()
    try:
        with process_tuning.bulk_work():
            assert not gc.isenabled() and sys.getswitchinterval() == 0.001
        assert gc.isenabled() and sys.getswitchinterval() == interval
        layout_job._share_the_gil(True)
        assert sys.getswitchinterval() == 0.001
        layout_job._share_the_gil(False)
        assert sys.getswitchinterval() == interval
    finally:
        process_tuning.tune_process(False)


def test_bulk_work_leaves_what_it_made_out_of_the_young_generation() -> None:
    """Before, the first collections after a 50k import scanned its ~10^6 new objects (0.1-0.3 s
    each, holding the GIL): now they are frozen on the way out, and still freed by refcount."""
    process_tuning.tune_process()
    try:
        with process_tuning.bulk_work():
            made = [[i] for i in range(20_000)]
        assert gc.get_freeze_count() >= len(made)
        assert gc.get_count()[0] < 1_000  # the young generation is not left holding them
    finally:
        process_tuning.tune_process(False)
        gc.unfreeze()
