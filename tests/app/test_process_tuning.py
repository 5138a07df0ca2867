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


def test_overlapping_bulk_works_keep_the_settings_until_the_last_one_ends() -> None:
    """Before, each bulk work restored what it saw on entry: the first to end (a check, a graph
    read) put the switch interval back to 5 ms and the collector on while another still ran (an
    import's write), and one entered while a layout ran left the interval at 1 ms for good."""
    interval = sys.getswitchinterval()
    process_tuning.tune_process()
    try:
        first, second = process_tuning.bulk_work(), process_tuning.bulk_work()
        first.__enter__()
        second.__enter__()
        first.__exit__(None, None, None)
        assert sys.getswitchinterval() == process_tuning.FAST_SWITCH and not gc.isenabled()
        second.__exit__(None, None, None)
        assert sys.getswitchinterval() == interval and gc.isenabled()

        layout_job._share_the_gil(True)  # a layout starts, an import starts, the layout ends
        with process_tuning.bulk_work():
            layout_job._share_the_gil(False)
            assert sys.getswitchinterval() == process_tuning.FAST_SWITCH
        assert sys.getswitchinterval() == interval  # not the layout's 1 ms, kept for good
    finally:
        process_tuning.tune_process(False)
        gc.unfreeze()
