"""Fruchterman-Reingold forces in O(n + m + G^2 log G) per iteration, never O(n^2).

- attraction ``w d^2`` along every edge (``np.bincount``), where ``w`` (``edge_pull``) is the
  edge's weight divided by its busier end's weighted degree (see "Hubs" below);
- repulsion ``1/d`` from every node through a particle mesh: masses spread on a G x G grid
  (cloud-in-cell), convolved with the softened kernel ``r / (|r|^2 + h^2)`` by FFT, and read
  back at each node;
- a near field for what the mesh smooths away below a cell: each node's ``NEAR`` nearest
  neighbours (a ``cKDTree``, rebuilt every few iterations) add ``r/|r|^2 - r/(|r|^2 + h^2)``;
- a weak gravity towards the centre, so packed components stay together.
Units: the ideal edge length is 1.

Hubs. A story-shaped memory has a protagonist in a third of the events (11k of 156k edges in
the 50k demo, ``memgraph demo --nodes 50000 --seed 11``) and a few more characters and places
with thousands. With plain FR pulls the hub drags its events into one ball around itself, and
the picture is a disk with spokes: edge-length ratio (``quality.layout_quality``) 0.24 there,
0.44 on the uniform demo. Measured on both (45 iterations from the same PivotMDS start):
| each edge pulls with | story 50k | uniform 50k |
|---|---:|---:|
| 1 (plain FR) | 0.240 | 0.442 |
| FA2-style degree-dependent repulsion (mass deg+1) | 0.232 | |
| LinLog attraction ``log(1+d)`` | 0.215 | |
| 1 / max(deg_a, deg_b)^0.5 | 0.084 | |
| 1 / max(deg_a, deg_b) (this module) | 0.042 | 0.193 |
So each edge's pull is divided by the weighted degree of its busier end (ForceAtlas2's "dissuade
hubs" divides by the source's degree; dividing by the larger end also damps the hub's side of
the pull on its events): a hub's thousands of edges together pull about as hard as an ordinary
node's few, so the hub settles at the barycentre of its events, placed after the rest in
effect, and the events group by their rollups and the arcs of time they share instead. Pulls are
scaled to mean 1, which keeps the units (and the ideal edge length) of the plain model.
"""

from __future__ import annotations

from typing import Any

import numpy as np

NEAR = 5
REBUILD = 12
GRAVITY = 0.5
MAX_GRID = 256


class Forces:
    """The force field of one graph (cleaned ``links`` of ``n`` nodes); not thread-safe."""

    covers_all = True  # ``field`` answers every row

    def __init__(self, links: np.ndarray, n: int, pull: np.ndarray | None = None) -> None:
        """``links`` from ``start.merge_edges``; ``pull`` one per link (``edge_pull`` of unit
        weights when None)."""
        self.links = links
        self.n = n
        self.pull = edge_pull(links, n) if pull is None else pull
        self.grid = grid_size(n)
        self._kernel = kernel_spectra(self.grid)
        self._near: np.ndarray | None = None
        self._near_age = 0

    def field(self, pos: np.ndarray, *, near: bool = True) -> np.ndarray:
        """The net force ``(n, 2)`` on every node at ``pos`` (``near=False``: without the near
        field, cheaper while nodes still move far between iterations)."""
        force = self._attraction(pos)
        force += self._repulsion(pos, near)
        force -= GRAVITY * (pos - pos.mean(axis=0))
        return force

    def _attraction(self, pos: np.ndarray) -> np.ndarray:
        a, b = self.links[:, 0], self.links[:, 1]
        diff = pos[b] - pos[a]
        pull = diff * (self.pull * np.sqrt((diff**2).sum(axis=1)))[:, None]
        force = np.empty_like(pos)
        for axis in (0, 1):
            force[:, axis] = np.bincount(a, pull[:, axis], self.n) - np.bincount(
                b, pull[:, axis], self.n
            )
        return force

    def _repulsion(self, pos: np.ndarray, near: bool) -> np.ndarray:
        mesh = Mesh.around(pos, self.grid)
        spread = mesh.spread(pos)
        force = mesh.read(mesh.convolved(spread, self._kernel), spread)
        if near:
            force += self._near_field(pos, mesh.cell)
        return force

    def _near_field(self, pos: np.ndarray, cell: float) -> np.ndarray:
        if self.n < 2:
            return np.zeros_like(pos)
        if self._near is None or self._near_age >= REBUILD:
            from scipy.spatial import cKDTree

            k = min(NEAR + 1, self.n)
            self._near = cKDTree(pos).query(pos, k=k)[1][:, 1:].astype(np.int64)
            self._near_age = 0
        self._near_age += 1
        near = self._near
        force = np.empty_like(pos)
        dx = pos[:, :1] - pos[near, 0]
        dy = pos[:, 1:] - pos[near, 1]
        sq = dx * dx + dy * dy
        push = 1.0 / np.maximum(sq, 1e-6 * cell * cell) - 1.0 / (sq + cell * cell)
        force[:, 0] = (dx * push).sum(axis=1)
        force[:, 1] = (dy * push).sum(axis=1)
        return force

    def forget_neighbours(self) -> None:
        """Rebuild the near-field neighbour lists at the next call (after a big move)."""
        self._near = None


def edge_pull(links: np.ndarray, n: int, weights: np.ndarray | None = None) -> np.ndarray:
    """Each link's pull: its weight (1.0 without ``weights``) over the larger weighted degree of
    its two ends, scaled to mean 1 (see "Hubs" above)."""
    if len(links) == 0:
        return np.zeros(0)
    weight = np.ones(len(links)) if weights is None else np.asarray(weights, dtype=np.float64)
    strength = np.bincount(links.ravel(), np.repeat(weight, 2), n)
    pull = weight / np.maximum(strength[links[:, 0]], strength[links[:, 1]])
    return np.asarray(pull / pull.mean())


Spread = tuple[np.ndarray, tuple[np.ndarray, ...]]  # each point's cell, its 4 corner weights


class Mesh:
    """A ``grid`` x ``grid`` mesh over a box from ``low`` with square cells of side ``cell``:
    masses spread cloud-in-cell, their softened repulsion convolved by FFT, read back at any
    points (points off the box count as on its border)."""

    def __init__(self, grid: int, low: np.ndarray, cell: float) -> None:
        self.grid, self.low, self.cell = grid, low, cell
        self.offsets = (0, 1, grid, grid + 1)

    @classmethod
    def around(cls, pos: np.ndarray, grid: int) -> Mesh:
        """The mesh whose box holds every point of ``pos``."""
        low = pos.min(axis=0)
        return cls(grid, low, max(float((pos.max(axis=0) - low).max()) / (grid - 2), 1e-9))

    def spread(self, pos: np.ndarray) -> Spread:
        """Each point's cell (a flat index) and its four cloud-in-cell weights."""
        gpos = np.clip((pos - self.low) / self.cell, 0.0, self.grid - 1 - 1e-9)
        cells = np.minimum(gpos.astype(np.int64), self.grid - 2)
        return cells[:, 0] * self.grid + cells[:, 1], corners(gpos - cells)

    def convolved(self, spread: Spread, kernel: tuple[Any, Any]) -> tuple[np.ndarray, np.ndarray]:
        """The repulsion field (x and y on the grid) of unit masses at the spread points."""
        index, weights = spread
        size = self.grid * self.grid
        mass = np.zeros(size)
        for off, w in zip(self.offsets, weights, strict=True):
            mass += np.bincount(index + off, w, size)
        return convolve(mass.reshape(self.grid, self.grid), kernel)

    def read(self, fields: tuple[np.ndarray, np.ndarray], spread: Spread) -> np.ndarray:
        """The force ``(k, 2)`` the field puts on each spread point."""
        index, weights = spread
        force = np.zeros((len(index), 2))
        for axis in (0, 1):
            flat = fields[axis].ravel()
            force[:, axis] = sum(
                w * flat[index + off] for off, w in zip(self.offsets, weights, strict=True)
            )
        return force / self.cell


def grid_size(n: int) -> int:
    """The mesh's side for ``n`` nodes: a power of two near ``1.2 sqrt(n)``, at most 256."""
    return min(MAX_GRID, int(2 ** np.ceil(np.log2(max(8.0, 1.2 * np.sqrt(max(n, 1)))))))


def corners(frac: np.ndarray) -> tuple[np.ndarray, ...]:
    fx, fy = frac[:, 0], frac[:, 1]
    return ((1 - fx) * (1 - fy), (1 - fx) * fy, fx * (1 - fy), fx * fy)


def kernel_spectra(grid: int) -> tuple[Any, Any]:
    """FFTs of the softened repulsion kernel, on a zero-padded 2G x 2G grid (cell units)."""
    from scipy import fft

    span = np.fft.fftfreq(2 * grid, 1.0 / (2 * grid))
    dx, dy = np.meshgrid(span, span, indexing="ij")
    scale = 1.0 / (dx**2 + dy**2 + 1.0)
    return fft.rfft2(dx * scale), fft.rfft2(dy * scale)


def convolve(mass: np.ndarray, kernel: tuple[Any, Any]) -> tuple[np.ndarray, np.ndarray]:
    from scipy import fft

    grid = mass.shape[0]
    spectrum = fft.rfft2(mass, s=(2 * grid, 2 * grid))
    fx = fft.irfft2(spectrum * kernel[0], s=(2 * grid, 2 * grid))[:grid, :grid]
    fy = fft.irfft2(spectrum * kernel[1], s=(2 * grid, 2 * grid))[:grid, :grid]
    return fx, fy
