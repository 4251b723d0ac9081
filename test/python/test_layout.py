"""shard/assemble: per-device arrays of a sharding, halos, partial values,
replica checks, poison and the shared reduction."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mesh_dialect.sharding import Mesh, Sharding
from mesh_dialect.sim.layout import (
    LayoutError,
    ReplicaMismatch,
    assemble,
    combine,
    is_poison,
    max_difference,
    pieces,
    poison,
    poison_value,
    shard,
)

NAN = np.nan

# -- poison ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dtype", "value"),
    [
        (np.int8, -128),
        (np.int64, np.iinfo(np.int64).min),
        (np.uint8, 255),
        (np.uint32, 2**32 - 1),
        (np.bool_, False),
    ],
)
def test_poison_sentinels_of_integers_and_bools(dtype, value):
    p = poison((2, 3), dtype)
    assert p.dtype == np.dtype(dtype) and p.shape == (2, 3)
    assert (p == value).all() and is_poison(p).all()
    assert poison_value(dtype) == value


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64])
def test_poison_of_floats_is_nan(dtype):
    p = poison((3,), dtype)
    assert p.dtype == np.dtype(dtype) and np.isnan(p).all() and is_poison(p).all()
    assert not is_poison(np.array([0.0, np.inf], dtype)).any()


def test_poison_of_times_is_nat_and_other_dtypes_have_none():
    assert np.isnat(poison((1,), "datetime64[s]")).all()
    assert is_poison(poison((2,), "timedelta64[ms]")).all()
    with pytest.raises(TypeError, match="no poison value for dtype object"):
        poison((1,), object)


def test_is_poison_is_element_wise():
    assert is_poison(np.array([1, -128, 0], np.int8)).tolist() == [False, True, False]
    assert is_poison(np.array([1.0, NAN])).tolist() == [False, True]


# -- shard / assemble ------------------------------------------------------------

X44 = np.arange(1, 17, dtype=np.int32).reshape(4, 4)


def test_shard_a_4x4_tensor_on_a_2x2_mesh():
    mesh = Mesh((2, 2))
    s = Sharding([[0], [1]])
    locals_ = shard(X44, s, mesh)
    assert locals_[(0, 0)].tolist() == [[1, 2], [5, 6]]
    assert locals_[(0, 1)].tolist() == [[3, 4], [7, 8]]
    assert locals_[(1, 0)].tolist() == [[9, 10], [13, 14]]
    assert locals_[(1, 1)].tolist() == [[11, 12], [15, 16]]
    assert np.array_equal(assemble(locals_, s, mesh), X44)
    locals_[(0, 0)][0, 0] = 99  # fresh copies: the global array is untouched
    assert X44[0, 0] == 1


def test_replicated_and_split_over_one_axis():
    mesh = Mesh((2, 2))
    rows = shard(X44, Sharding([[0]]), mesh)
    assert rows[(0, 0)].tolist() == rows[(0, 1)].tolist() == [[1, 2, 3, 4], [5, 6, 7, 8]]
    assert rows[(1, 1)].tolist() == [[9, 10, 11, 12], [13, 14, 15, 16]]
    full = shard(X44, Sharding.replicated(), mesh)
    assert all(np.array_equal(a, X44) for a in full.values())
    assert pieces(Sharding([[0]]), mesh) == [(0, 0), (1, 0)]


def test_halos_hold_neighbour_data_and_poison_beyond_the_edge():
    mesh = Mesh((2,))
    x = np.arange(8.0)
    s = Sharding([[0]], halo_sizes=[1, 2])
    locals_ = shard(x, s, mesh)
    np.testing.assert_array_equal(locals_[(0,)], [NAN, 0, 1, 2, 3, 4, 5])
    np.testing.assert_array_equal(locals_[(1,)], [3, 4, 5, 6, 7, NAN, NAN])
    assert np.array_equal(assemble(locals_, s, mesh), x)


def test_halos_in_two_dimensions():
    mesh = Mesh((2, 2))
    x = np.arange(16.0).reshape(4, 4)
    s = Sharding([[0], [1]], halo_sizes=[1, 0, 0, 1])
    locals_ = shard(x, s, mesh)
    np.testing.assert_array_equal(locals_[(1, 0)], [[4, 5, 6], [8, 9, 10], [12, 13, 14]])
    np.testing.assert_array_equal(locals_[(0, 1)], [[NAN, NAN, NAN], [2, 3, NAN], [6, 7, NAN]])
    assert np.array_equal(assemble(locals_, s, mesh), x)


def test_halo_wider_than_a_neighbours_core():
    mesh = Mesh((4,))
    s = Sharding([[0]], halo_sizes=[3, 0])
    locals_ = shard(np.arange(8, dtype=np.int16), s, mesh)
    assert locals_[(3,)].tolist() == [3, 4, 5, 6, 7]
    assert locals_[(1,)].tolist() == [-32768, 0, 1, 2, 3]


def test_uneven_split_with_offsets():
    mesh = Mesh((3,))
    s = Sharding([[], [0]], sharded_dims_offsets=[0, 1, 1, 4])
    x = np.arange(8).reshape(2, 4)
    locals_ = shard(x, s, mesh)
    assert [locals_[(i,)].shape for i in range(3)] == [(2, 1), (2, 0), (2, 3)]
    assert locals_[(2,)].tolist() == [[1, 2, 3], [5, 6, 7]]
    assert np.array_equal(assemble(locals_, s, mesh), x)


def test_uneven_split_without_offsets_follows_upstreams_shard_shape():
    # n // k each, the last n % k pieces one more: 7 over 3 is 2, 2, 3
    mesh = Mesh((3,))
    x = np.arange(7)
    locals_ = shard(x, Sharding([[0]]), mesh)
    assert [locals_[(i,)].tolist() for i in range(3)] == [[0, 1], [2, 3], [4, 5, 6]]
    assert np.array_equal(assemble(locals_, Sharding([[0]]), mesh), x)


@pytest.mark.parametrize(
    ("kind", "others"),
    [("sum", [0, 0]), ("bitwise_xor", [0, 0]), ("product", [1, 1]), ("max", [5, 6]), ("min", [5, 6])]
    + [("average", [5, 6]), ("bitwise_and", [5, 6]), ("bitwise_or", [5, 6])],
)
def test_partial_decomposition(kind, others):
    mesh = Mesh((2, 2))
    s = Sharding([[0]], partial_axes=[1], partial_type=kind)
    x = np.array([3, 4, 5, 6], dtype=np.int64)
    locals_ = shard(x, s, mesh)
    assert locals_[(0, 0)].tolist() == [3, 4] and locals_[(1, 0)].tolist() == [5, 6]
    assert locals_[(1, 1)].tolist() == others  # position 1 along the partial axis
    assert np.array_equal(assemble(locals_, s, mesh), x)


def test_assemble_reduces_partial_terms():
    mesh = Mesh((2, 3))
    s = Sharding([[0]], partial_axes=[1], partial_type="sum")
    locals_ = {(i, j): np.array([10 * i + j, 1], np.int32) for i, j in mesh.devices()}
    assert assemble(locals_, s, mesh).tolist() == [0 + 1 + 2, 3, 10 + 11 + 12, 3]
    avg = Sharding([[0]], partial_axes=[1], partial_type="average")
    assert assemble(locals_, avg, mesh).tolist() == [1, 1, 11, 1]
    mx = Sharding((), partial_axes=[0, 1], partial_type="max")
    assert assemble({d: np.array([d[0] - d[1]]) for d in mesh.devices()}, mx, mesh).tolist() == [1]


def test_bitwise_partial_of_floats_is_refused():
    with pytest.raises(LayoutError, match="reduction kind 'bitwise_or' needs an integer element type, got float64"):
        shard(np.zeros(2), Sharding((), [0], "bitwise_or"), Mesh((2,)))


def test_replica_mismatch_names_two_devices_and_the_difference():
    mesh = Mesh((2, 2))
    s = Sharding([[1]])
    locals_ = shard(np.arange(4.0), s, mesh)
    locals_[(1, 1)] = locals_[(1, 1)] + np.array([0.0, 2.5])
    with pytest.raises(ReplicaMismatch) as info:
        assemble(locals_, s, mesh)
    assert str(info.value) == "replicas [0, 1] and [1, 1] differ: max difference 2.5 (first at core index [1])"
    assert (info.value.device_a, info.value.device_b, info.value.max_difference) == ((0, 1), (1, 1), 2.5)
    assert assemble(locals_, s, mesh, check_replicas=False).tolist() == [0, 1, 2, 3]


def test_replicas_agree_on_nan_and_ignore_halos():
    mesh = Mesh((2, 2))
    s = Sharding([[1]], halo_sizes=[1, 0])
    x = np.array([NAN, 1.0, 2.0, NAN])
    locals_ = shard(x, s, mesh)
    locals_[(1, 0)][0] = 42.0  # a halo cell: not part of the value
    np.testing.assert_array_equal(assemble(locals_, s, mesh), x)
    locals_[(1, 0)][1] = 42.0
    with pytest.raises(ReplicaMismatch, match="max difference nan"):
        assemble(locals_, s, mesh)


def test_integer_replica_difference_is_exact():
    big = np.iinfo(np.int64)
    assert max_difference(np.array([big.min, 0]), np.array([big.max, 0])) == 2**64 - 1
    assert max_difference(np.array([1, 2]), np.array([1, 2])) == 0


def test_assemble_checks_the_arrays():
    mesh = Mesh((2,))
    s = Sharding([[0]])
    good = shard(np.arange(4), s, mesh)
    with pytest.raises(LayoutError, match=r"device \[1\] has no array"):
        assemble({(0,): good[(0,)]}, s, mesh)
    # 5 elements over 2 devices are pieces of 2 and 3 (the last one longer)
    with pytest.raises(LayoutError, match=r"device \[0\] holds shape \[3\] but the sharding gives it \[2\]"):
        assemble({(0,): np.arange(3), (1,): good[(1,)]}, s, mesh)
    with pytest.raises(LayoutError, match=r"device \[1\] holds dtype float64 but device \[0\] holds int64"):
        assemble({(0,): good[(0,)], (1,): np.zeros(2)}, s, mesh)
    with pytest.raises(LayoutError, match=r"\(2, 0\) is not a device"):
        assemble({**good, (2, 0): good[(0,)]}, s, mesh)


# -- the shared reduction --------------------------------------------------------


def test_integer_sums_wrap_in_the_dtype():
    a = np.array([100, -100], np.int8)
    assert combine([a, a], "sum").tolist() == [-56, 56]
    assert combine([a, a], "product").tolist() == [16, 16]  # 10000 mod 256
    assert combine([np.array([200], np.uint8)] * 2, "sum").tolist() == [144]


def test_integer_average_truncates_toward_zero():
    assert combine([np.array([-7, 7, -1], np.int32), np.array([0, 0, 0], np.int32)], "average").tolist() == [-3, 3, 0]
    # the sum wraps first: (100 + 100) in int8 is -56, halved to -28
    assert combine([np.array([100], np.int8)] * 2, "average").tolist() == [-28]
    assert combine([np.array([-128], np.int8)] * 2, "average").tolist() == [0]
    lo = np.iinfo(np.int64).min
    assert combine([np.array([lo], np.int64), np.array([0], np.int64), np.array([0])], "average").tolist() == [
        -(2**63 // 3)
    ]
    assert combine([np.array([255], np.uint8), np.array([2], np.uint8)], "average").tolist() == [0]  # 257 wraps to 1


def test_float_average_and_conversion():
    terms = [np.array([1, 2], np.int32), np.array([2, 2], np.int32)]
    out = combine(terms, "average", np.float32)
    assert out.dtype == np.float32 and out.tolist() == [1.5, 2.0]


def test_bools_are_one_bit_integers():
    t, f = np.array([True, True, False]), np.array([True, False, False])
    assert combine([t, f], "sum").tolist() == [False, True, False]
    assert combine([t, f], "product").tolist() == [True, False, False]
    # max and min read i1 signed, as arith.maxsi/minsi do: true is -1
    assert combine([t, f], "max").tolist() == [True, False, False]
    assert combine([t, f], "min").tolist() == [True, True, False]
    assert combine([t, f], "bitwise_or").tolist() == [True, True, False]


def test_reductions_that_cannot_run():
    with pytest.raises(ValueError, match="'generic' has no defined semantics"):
        combine([np.zeros(1)], "generic")
    with pytest.raises(ValueError, match="needs an integer element type"):
        combine([np.zeros(1)], "bitwise_and")
    with pytest.raises(ValueError, match="unknown reduction kind 'mean'"):
        combine([np.zeros(1)], "mean")


# -- property: assemble(shard(x)) == x -------------------------------------------

KINDS = ["sum", "max", "min", "product", "average", "bitwise_and", "bitwise_or", "bitwise_xor"]


@st.composite
def layouts(draw):
    """A mesh, a sharding of a tensor on it (splits, partial axes, halos or
    uneven offsets) and a tensor of a fitting shape."""
    mesh = Mesh(tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))))
    rank = draw(st.integers(0, 3))
    roles = [draw(st.integers(-2, rank - 1)) for _ in range(mesh.rank)]  # -2 unused, -1 partial, else a dim
    split: list[list[int]] = [[] for _ in range(rank)]
    for a in draw(st.permutations(range(mesh.rank))):
        if roles[a] >= 0:
            split[roles[a]].append(a)
    partial = [a for a in range(mesh.rank) if roles[a] == -1]
    dtype = np.dtype(draw(st.sampled_from(["int32", "int64", "uint8", "float32", "float64"])))
    kinds = KINDS if dtype.kind in "iu" else KINDS[:5]
    kind = draw(st.sampled_from(kinds))
    mode = draw(st.sampled_from(["even", "halo", "offsets"]))
    shape, halos, offsets = [], [], []
    for axes in split:
        n = int(np.prod([mesh.shape[a] for a in axes])) if axes else 1
        if axes and mode == "offsets":
            sizes = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
            offsets += [int(v) for v in np.concatenate([[0], np.cumsum(sizes)])]
            shape.append(sum(sizes))
        else:
            shape.append(n * draw(st.integers(1, 3)))
            if axes and mode == "halo":
                halos += [draw(st.integers(0, 3)), draw(st.integers(0, 3))]
    sharding = Sharding(split, partial, kind, halos, offsets)
    hi = 3 if dtype == np.uint8 else 50  # small enough that no average overflows
    lo = 0 if dtype.kind == "u" else -hi
    values = draw(st.lists(st.integers(lo, hi), min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
    return mesh, sharding, np.array(values, dtype=dtype).reshape(shape)


@settings(max_examples=150, deadline=None)
@given(layouts())
def test_assemble_inverts_shard(layout):
    mesh, sharding, x = layout
    locals_ = shard(x, sharding, mesh)
    assert set(locals_) == set(mesh.devices())
    for d, a in locals_.items():
        assert a.shape == sharding.local_shape(x.shape, mesh, d)
    back = assemble(locals_, sharding, mesh)
    assert back.dtype == x.dtype and np.array_equal(back, x)


# -- random partial terms -------------------------------------------------------------

_TERM_KINDS = ["sum", "product", "max", "min", "average", "bitwise_and", "bitwise_or", "bitwise_xor"]


def _values(dtype, rng: np.random.Generator) -> np.ndarray:
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, 64).astype(dt)
    if dt.kind in "iu":
        return rng.integers(-8 if dt.kind == "i" else 0, 9, 64).astype(dt)
    x = (rng.standard_normal(64) * 10.0 ** rng.integers(-3, 4, 64)).astype(dt)
    x[:4] = [0.0, np.inf, np.nan, -2.5]
    return x


@pytest.mark.parametrize(
    "dtype", [np.int8, np.int32, np.uint16, np.int64, np.bool_, np.float16, np.float32, np.float64]
)
@pytest.mark.parametrize("kind", _TERM_KINDS)
@pytest.mark.parametrize("n", [2, 3, 4, 8])
def test_random_partial_terms_reduce_to_the_value(dtype, kind, n):
    from mesh_dialect.sim.layout import _equal_cells, combine, fixed_terms, partial_terms, reduction_problem

    if reduction_problem(kind, np.dtype(dtype)):
        pytest.skip("not a reduction of this type")
    rng = np.random.default_rng(n)
    x = _values(dtype, rng)
    if dtype == np.bool_ and kind == "average":
        x[:] = False  # a bool average over several devices is always false
    terms = partial_terms(x, kind, n, np.random.default_rng(7))
    assert terms.shape == (n, *x.shape) and terms.dtype == x.dtype
    got = combine(list(terms), kind, x.dtype)
    if np.dtype(dtype).kind == "f" and kind == "average" and n & (n - 1):
        # n * x cannot always be hit exactly: within one unit in the last place.
        np.testing.assert_array_max_ulp(got[4:], x[4:], maxulp=1)
    else:
        assert _equal_cells(got, x).all(), (x[~_equal_cells(got, x)], got[~_equal_cells(got, x)])
    if dtype != np.bool_:
        # Not the fixed decomposition: the first device does not hold the value everywhere.
        assert not np.array_equal(terms, fixed_terms(x, kind, n))


def test_float_sum_terms_have_both_signs():
    from mesh_dialect.sim.layout import partial_terms

    x = np.abs(np.random.default_rng(0).standard_normal(1000)).astype(np.float32) + 0.5
    terms = partial_terms(x, "sum", 4, np.random.default_rng(1))
    assert (terms < 0).any() and (terms[0] != x).all()


def test_an_average_the_type_cannot_hold_is_refused():
    from mesh_dialect.sim.layout import LayoutError, partial_terms

    with pytest.raises(LayoutError, match=r"^cannot hold -50 as an average over 3 devices in int8: "):
        partial_terms(np.array([1, -50], np.int8), "average", 3, np.random.default_rng(0))
    with pytest.raises(LayoutError, match=r"^a bool average over 2 devices is always false"):
        partial_terms(np.array([True]), "average", 2, np.random.default_rng(0))


def test_shard_with_random_terms_assembles_back():
    mesh = Mesh((2, 3))
    x = np.arange(24, dtype=np.int32).reshape(6, 4)
    s = Sharding(((0,), ()), (1,), "sum", (1, 1))
    pieces = shard(x, s, mesh, rng=np.random.default_rng(0))
    assert not np.array_equal(pieces[(0, 0)], shard(x, s, mesh)[(0, 0)])
    np.testing.assert_array_equal(assemble(pieces, s, mesh), x)
