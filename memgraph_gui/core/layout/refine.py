"""The force refinement's schedule: a temperature that cools linearly over ``iterations`` steps,
each node moving along its net force by at most the temperature; fixed rows never move."""

from __future__ import annotations

import numpy as np

from memgraph_gui.core.layout.forces import Forces
from memgraph_gui.core.layout.local_forces import LocalForces

FULL_ITERATIONS = 45
LOCAL_ITERATIONS = 30
FINAL_SHARE = 0.02
NEAR_FROM = 0.3  # share of the schedule after which the near field is on


class Refiner:
    """Cools ``pos`` towards a force equilibrium; ``movable`` rows move, the others stay put."""

    def __init__(
        self,
        forces: Forces | LocalForces,
        pos: np.ndarray,
        movable: np.ndarray,
        *,
        temperature: float,
        iterations: int,
    ) -> None:
        self.forces = forces
        self.pos = pos
        self.movable = movable
        self._all = bool(movable.all())
        self.start_temperature = temperature
        self.planned = self.iterations = iterations
        self.done = 0

    @property
    def finished(self) -> bool:
        """True once the schedule has cooled down (or nothing can move)."""
        return self.done >= self.iterations or not self.movable.any()

    def fit(self, iterations: int) -> None:
        """End the schedule after ``iterations`` steps in all (at least one more, at most the
        planned number): cools faster when time runs short."""
        self.iterations = min(self.planned, max(self.done + 1, iterations))

    def step(self) -> float:
        """One iteration; returns the mean distance the movable rows moved."""
        share = self.done / max(self.iterations, 1)
        temperature = self.start_temperature * ((1 - share) * (1 - FINAL_SHARE) + FINAL_SHARE)
        force = self.forces.field(self.pos, near=share >= NEAR_FROM)
        if not self._all and self.forces.covers_all:
            force = force[self.movable]
        length = np.sqrt((force**2).sum(axis=1))[:, None]
        move = force * (np.minimum(length, temperature) / np.maximum(length, 1e-12))
        if self._all:
            self.pos += move
        else:
            self.pos[self.movable] += move
        self.done += 1
        return float(np.sqrt((move**2).sum(axis=1)).mean()) if len(move) else 0.0
