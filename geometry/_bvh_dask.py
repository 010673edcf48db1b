"""The tree over dask arrays of boxes that ``BoxTree(box_min, box_max)`` builds for them.

One :class:`.box_tree.BoxTree` per chunk of boxes, built on the dask cluster's workers and kept
there (the futures are held here); a query goes to every chunk's tree as one task each and the
answers merge into the in-memory tree's: box indices made global, pairs sorted by query then
box, the nearest answers the minimum over the chunks, the lowest global index on ties (the
chunks are in index order, and within a chunk its tree already broke ties by index).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np

from ._bvh_results import FrustumBoxes, NearestBoxes, NearestHits, SelfPairs, sorted_pairs
from ._bvh_tree import VARIANTS, BoxTree


def _ask(tree: BoxTree, name: str, args: tuple, kwargs: dict) -> Any:  # type: ignore[type-arg]
    """Run query ``name`` on one chunk's tree, on its worker."""
    return getattr(tree, name)(*args, **kwargs)


def _build(chunk: tuple[np.ndarray, np.ndarray]) -> BoxTree:
    """One chunk's tree, on its worker."""
    return BoxTree(*chunk)


class DaskBoxTree(BoxTree):
    """A :class:`BoxTree` over dask arrays of boxes: one tree per chunk, on the workers."""

    def __init__(self, box_min: Any, box_max: Any) -> None:
        import dask.array as da
        from dask.distributed import get_client, wait

        lo, hi = (da.asarray(x) for x in (box_min, box_max))  # type: ignore[no-untyped-call]
        if lo.ndim != 2 or lo.shape != hi.shape:
            raise ValueError(f"box_min and box_max must be dask arrays of the same shape "
                             f"(N, 3), got {lo.shape} and {hi.shape}")
        lo = lo.rechunk({1: -1})
        hi = hi.rechunk(lo.chunks)
        self._client = get_client()
        chunks = list(zip(lo.to_delayed().ravel(), hi.to_delayed().ravel(), strict=True))
        # the chunks' boxes stay on the workers too: the pairs across chunks query them
        self._chunks = self._client.compute(chunks)  # type: ignore[no-untyped-call]
        self._trees = [self._client.submit(_build, c, pure=False) for c in self._chunks]
        wait(self._trees)  # type: ignore[no-untyped-call]
        for future in self._trees:
            if future.status == "error":  # the build's ValueError, as the in-memory tree's
                raise future.exception()  # type: ignore[no-untyped-call]
        self._offsets = np.cumsum((0,) + lo.chunks[0])
        self._n = int(lo.shape[0])
        self._dtype = np.dtype(np.float32 if lo.dtype == np.float32 and hi.dtype == np.float32
                               else np.float64)

    def __repr__(self) -> str:
        return f"BoxTree({self._n} boxes, {self._dtype}, {len(self._trees)} chunks on dask)"

    def _each(self, name: str, *args: Any, **kwargs: Any) -> list[Any]:
        """Every chunk's answer to query ``name``, in chunk order, with the boxes' offsets."""
        futures = [self._client.submit(_ask, t, name, args, kwargs, pure=False)
                   for t in self._trees]
        answers = self._client.gather(futures)  # type: ignore[no-untyped-call]
        return list(zip(self._offsets[:-1].tolist(), answers, strict=True))

    def nearest_ray_hits(self, *args: Any, **kwargs: Any) -> NearestHits:
        """As :meth:`BoxTree.nearest_ray_hits`."""
        answers = self._each("nearest_ray_hits", *args, **kwargs)
        index, t = np.asarray(answers[0][1].box_index), np.asarray(answers[0][1].t_enter)
        for offset, got in answers[1:]:
            d = np.asarray(got.t_enter)
            closer = d < t  # equal: the earlier chunk's, lower index stays
            index = np.where(closer, np.asarray(got.box_index) + offset, index)
            t = np.where(closer, d, t)
        if index.ndim == 0:
            return NearestHits(int(index), float(t))
        return NearestHits(index, t)

    def nearest_boxes(self, points: Any, k: int) -> NearestBoxes:
        """As :meth:`BoxTree.nearest_boxes`."""
        answers = self._each("nearest_boxes", points, k)
        index = np.concatenate([np.where(g.box_index < 0, -1, g.box_index + o)
                                for o, g in answers], axis=-1)
        distance = np.concatenate([g.distance for _, g in answers], axis=-1)
        lead = index.shape[:-1]
        index, distance = index.reshape(-1, index.shape[-1]), distance.reshape(index.shape)
        key = np.where(index < 0, np.iinfo(np.int64).max, index)
        order = np.lexsort((key, distance), axis=-1)[:, :k]
        return NearestBoxes(np.take_along_axis(index, order, 1).reshape(lead + (k,)),
                            np.take_along_axis(distance, order, 1).reshape(lead + (k,)))

    def frustum(self, *args: Any, **kwargs: Any) -> FrustumBoxes:
        """As :meth:`BoxTree.frustum`."""
        answers = self._each("frustum", *args, **kwargs)
        return FrustumBoxes(np.concatenate([g.box_index + o for o, g in answers]),
                            np.concatenate([g.kind for _, g in answers]))

    def self_pairs(self) -> SelfPairs:
        """As :meth:`BoxTree.self_pairs`: each chunk's own pairs, and each chunk's boxes as
        ``box_pairs`` queries against the trees of the chunks before it (the box test is
        symmetric)."""
        asks = [(i, i, self._client.submit(_ask, t, "self_pairs", (), {}, pure=False))
                for i, t in enumerate(self._trees)]
        asks += [(i, j, self._client.submit(_ask, self._trees[i], "box_pairs", self._chunks[j],
                                            {}, pure=False))
                 for j in range(len(self._trees)) for i in range(j)]
        answers = self._client.gather([f for _, _, f in asks])  # type: ignore[no-untyped-call]
        o = self._offsets
        first = [a[0] + o[i] if i == j else a[1] + o[i]
                 for (i, j, _), a in zip(asks, answers, strict=True)]
        second = [a[1] + o[j] if i == j else a[0] + o[j]
                  for (i, j, _), a in zip(asks, answers, strict=True)]
        return SelfPairs(*sorted_pairs(np.concatenate(first), np.concatenate(second)))

    def refit(self, box_min: Any, box_max: Any) -> NoReturn:
        raise ValueError("refit needs the boxes in memory: build a tree on dask arrays afresh")

    def rebuild(self) -> NoReturn:
        raise ValueError("rebuild needs the boxes in memory: build a tree on dask arrays afresh")


def _pairs(name: str) -> Callable[..., Any]:
    def query(self: DaskBoxTree, *args: Any, **kwargs: Any) -> Any:
        answers = self._each(name, *args, **kwargs)
        first = answers[0][1]
        fields = [np.concatenate([g[f] + (o if f == 1 else 0) for o, g in answers])
                  for f in range(len(first))]
        return type(first)(*sorted_pairs(*fields))

    query.__doc__ = f"As :meth:`BoxTree.{name}`."
    query.__name__ = name
    return query


for _name in ("ray_pairs", "segment_pairs", "triangle_pairs", "box_pairs", "sphere_pairs"):
    setattr(DaskBoxTree, _name, _pairs(_name))

VARIANTS["dask"] = DaskBoxTree
