"""The force field of an incremental run, on the moving rows only.

An incremental run moves a few rows (the new ones and their neighbours) among thousands that
stay put, so the fixed rows' share of the field is worked out once: their repulsion mesh is
convolved once, their nearest neighbours come from one tree of their positions, and their sum
(for the gravity) is kept. A step then costs O(k^2 + m_k) for k moving rows and the m_k edges
touching them: the edges pull as in ``forces``, the moving rows repel each other through the
mesh's smoothed kernel computed directly, and each moving row's ``NEAR`` nearest rows (moving
or fixed) get the exact repulsion, as ``forces.Forces`` corrects its mesh. Both fields agree on
the moving rows up to the mesh's own interpolation (measured: 0.1% median at 50k nodes).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from memgraph_gui.core.layout.forces import (
    GRAVITY,
    NEAR,
    REBUILD,
    Mesh,
    edge_pull,
    grid_size,
    kernel_spectra,
)

# moving rows up to which the pairwise terms beat a whole-graph step (at 50k: ~17 ms a step)
LOCAL_MAX = 1_000
_CHUNK = 256  # moving rows per block of the pairwise repulsion (bounds its memory)


class LocalForces:
    """Forces on the rows of ``movable`` (in row order) while every other row stays at ``pos``."""

    covers_all = False  # ``field`` answers the moving rows only

    def __init__(
        self,
        links: np.ndarray,
        pos: np.ndarray,
        movable: np.ndarray,
        pull: np.ndarray | None = None,
    ) -> None:
        """``links`` and ``pull`` as for ``Forces`` (the pulls of the whole graph's links)."""
        self.rows = np.flatnonzero(movable)
        self.n = len(pos)
        local = np.full(self.n, -1, dtype=np.int64)
        local[self.rows] = np.arange(len(self.rows))
        pull = edge_pull(links, self.n) if pull is None else pull
        touches = movable[links[:, 0]] | movable[links[:, 1]]
        touching, self._pull = links[touches], pull[touches]
        self._a, self._b = touching[:, 0], touching[:, 1]
        self._la, self._lb = local[self._a], local[self._b]
        fixed = pos[~movable]
        self._fixed, self._fixed_sum = fixed, fixed.sum(axis=0)
        self._mesh = Mesh.around(pos, grid_size(self.n))
        self.cell = self._mesh.cell
        self._fields = self._mesh.convolved(
            self._mesh.spread(fixed), kernel_spectra(self._mesh.grid)
        )
        self._tree: Any = None  # a cKDTree of the fixed rows, made on first use
        self._near: np.ndarray | None = None
        self._near_age = 0

    def field(self, pos: np.ndarray, *, near: bool = True) -> np.ndarray:
        """The net force ``(k, 2)`` on the moving rows at ``pos`` (the whole ``(n, 2)`` array)."""
        moving = pos[self.rows]
        force = self._attraction(pos)
        force += self._from_mesh(moving)
        force += self._pairs(moving, near)
        mean = (self._fixed_sum + moving.sum(axis=0)) / max(self.n, 1)
        force -= GRAVITY * (moving - mean)
        return force

    def _attraction(self, pos: np.ndarray) -> np.ndarray:
        diff = pos[self._b] - pos[self._a]
        pull = diff * (self._pull * np.sqrt((diff**2).sum(axis=1)))[:, None]
        k = len(self.rows)
        force = np.zeros((k, 2))
        for axis in (0, 1):
            at_a, at_b = self._la >= 0, self._lb >= 0
            force[:, axis] += np.bincount(self._la[at_a], pull[at_a, axis], k)
            force[:, axis] -= np.bincount(self._lb[at_b], pull[at_b, axis], k)
        return force

    def _from_mesh(self, moving: np.ndarray) -> np.ndarray:
        """The fixed rows' smoothed repulsion, read off the mesh at the moving rows."""
        return self._mesh.read(self._fields, self._mesh.spread(moving))

    def _near_fixed(self, moving: np.ndarray) -> np.ndarray | None:
        """Each moving row's ``NEAR`` nearest fixed rows (found again every ``REBUILD`` steps)."""
        if not len(self._fixed):
            return None
        if self._near is None or self._near_age >= REBUILD:
            from scipy.spatial import cKDTree

            self._tree = self._tree or cKDTree(self._fixed)
            k = min(NEAR, len(self._fixed))
            found = self._tree.query(moving, k=k)[1]
            self._near = found.reshape(len(moving), k).astype(np.int64)
            self._near_age = 0
        self._near_age += 1
        return self._near

    def _pairs(self, moving: np.ndarray, near: bool) -> np.ndarray:
        """The moving rows' smoothed repulsion on each other (the mesh's kernel, computed
        directly), and with ``near``, the exact ``r/|r|^2`` for each row's ``NEAR`` nearest
        rows, moving or fixed, as ``Forces`` corrects its mesh."""
        force = np.zeros_like(moving)
        soft = self.cell * self.cell
        fixed_near = self._near_fixed(moving) if near else None
        for start in range(0, len(moving), _CHUNK):
            block = moving[start : start + _CHUNK]
            rows = np.arange(len(block))
            dx = block[:, :1] - moving[None, :, 0]
            dy = block[:, 1:] - moving[None, :, 1]
            sq = dx * dx + dy * dy
            sq[rows, start + rows] = np.inf  # no row pushes itself
            push = 1.0 / (sq + soft)
            if near and fixed_near is None:  # nothing is fixed: the nearest are all moving
                push += _correction(sq, _nth_smallest(sq, NEAR), soft)
            elif fixed_near is not None:
                rows_near = fixed_near[start : start + len(block)]
                fdx = block[:, :1] - self._fixed[rows_near, 0]
                fdy = block[:, 1:] - self._fixed[rows_near, 1]
                fsq = fdx * fdx + fdy * fdy
                limit = _nth_smallest(np.concatenate([sq, fsq], axis=1), NEAR)
                push += _correction(sq, limit, soft)
                fpush = _correction(fsq, limit, soft)
                force[start : start + len(block), 0] += (fdx * fpush).sum(axis=1)
                force[start : start + len(block), 1] += (fdy * fpush).sum(axis=1)
            force[start : start + len(block), 0] += (dx * push).sum(axis=1)
            force[start : start + len(block), 1] += (dy * push).sum(axis=1)
        return force


def _nth_smallest(values: np.ndarray, nth: int) -> np.ndarray:
    """Each row's ``nth`` smallest value (its largest when it has fewer)."""
    column = min(nth, values.shape[1]) - 1
    return np.partition(values, column, axis=1)[:, column : column + 1]


def _correction(sq: np.ndarray, limit: np.ndarray, soft: float) -> np.ndarray:
    """What turns the smoothed ``1/(d^2 + h^2)`` into the exact ``1/d^2``, for the pairs no
    farther than ``limit`` (a row's ``NEAR``-th nearest), 0 for the others."""
    exact = 1.0 / np.maximum(sq, 1e-6 * soft)
    return np.where(sq <= limit, exact - 1.0 / (sq + soft), 0.0)
