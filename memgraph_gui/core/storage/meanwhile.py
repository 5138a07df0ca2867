"""Running one job on a second thread while the caller does something else."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def meanwhile(
    job: Callable[[], None], name: str, *, its_error_first: bool = False
) -> Iterator[None]:
    """Run ``job`` on a second thread while the body runs, and wait for it at the end; its
    exception is raised then. When both fail, the body's exception wins, unless
    ``its_error_first`` (the job's failure explains the body's, e.g. damaged rows)."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            job()
        except BaseException as exc:  # handed to the calling thread below
            failed.append(exc)

    worker = threading.Thread(target=run, name=name, daemon=True)
    worker.start()
    try:
        yield
    except BaseException:
        worker.join()
        if failed and its_error_first:
            raise failed[0] from None
        raise
    worker.join()
    if failed:
        raise failed[0]
