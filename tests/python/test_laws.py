"""Property tests of the algebra's laws through the Python API, with static and dynamic leaves:
whenever an operation returns (it refuses with a LayoutError otherwise), its law holds."""

import pytest
from hypothesis import assume, given, settings, strategies as st

from cotile import *  # noqa: F403

SETTINGS = settings(max_examples=150, deadline=None)


def leaf(values):
    # a static (S) or dynamic (int) integer
    return st.builds(lambda v, static: S(v) if static else v, values, st.booleans())


@st.composite
def layouts(draw, max_modes=4, max_stride=64):
    n = draw(st.integers(1, max_modes))
    shapes = [draw(leaf(st.sampled_from([1, 2, 3, 4, 8]))) for _ in range(n)]
    strides = [draw(leaf(st.integers(0, max_stride))) for _ in range(n)]
    # group the flat modes into a random nesting: ((s0,s1),s2,...) or flat
    if n >= 3 and draw(st.booleans()):
        return Layout(((shapes[0], shapes[1]), *shapes[2:]), ((strides[0], strides[1]), *strides[2:]))
    return Layout(tuple(shapes), tuple(strides))


@st.composite
def compact_layouts(draw):
    # injective layouts: a compact layout with its modes permuted
    n = draw(st.integers(1, 4))
    shapes = [draw(leaf(st.sampled_from([2, 3, 4]))) for _ in range(n)]
    order = draw(st.permutations(range(n)))
    strides = [0] * n
    running = 1
    for i in order:
        strides[i] = S(running) if draw(st.booleans()) else running
        running *= int(shapes[i])
    return Layout(tuple(shapes), tuple(strides))


def values(L):
    return [L(i) for i in range(size(L))]


def attempt(f, *args):
    try:
        return f(*args)
    except LayoutError:
        assume(False)


@SETTINGS
@given(layouts(), layouts(max_stride=8))
def test_composition_is_function_composition(A, B):
    R = attempt(composition, A, B)
    assert size(R) == size(B)
    assert all(R(i) == A(B(i)) for i in range(size(B)))


@SETTINGS
@given(layouts())
def test_coalesce_preserves_the_function(L):
    C = coalesce(L)
    assert size(C) == size(L) and depth(C) <= 1
    assert values(C) == values(L)
    P = coalesce(L, tuple(1 for _ in range(rank(L))))
    assert rank(P) == rank(L) and values(P) == values(L)


@SETTINGS
@given(layouts())
def test_filter_keeps_the_image(L):
    F = filter(L)
    assert set(values(F)) == set(values(L))


@SETTINGS
@given(compact_layouts())
def test_left_inverse(L):
    R = attempt(left_inverse, L)
    assert all(R(L(i)) == i for i in range(size(L)))


@SETTINGS
@given(layouts())
def test_right_inverse(L):
    R = attempt(right_inverse, L)
    assert all(L(R(i)) == i for i in range(size(R)))


@SETTINGS
@given(compact_layouts(), st.sampled_from([1, 2, 4]))
def test_complement_is_disjoint_and_ordered(L, extra):
    cotarget = cosize(L) * extra
    C = attempt(complement, L, cotarget)
    image = set(values(L))
    assert all(c not in image for c in values(C)[1:])
    assert values(C) == sorted(values(C))
    both = make_layout(L, C)
    assert len(set(values(both))) == size(both) and size(both) >= cotarget


@SETTINGS
@given(compact_layouts(), st.sampled_from([1, 2, 4]))
def test_logical_divide_is_composition_with_the_complement(T, reps):
    A = Layout(cosize(T) * reps)
    D = attempt(logical_divide, A, T)
    assert D == composition(A, make_layout(T, complement(T, size(A))))


@SETTINGS
@given(layouts(max_modes=3))
def test_static_leaves_give_static_results(L):
    static = Layout(tuple(S(int(s)) for s in flatten(L.shape)), tuple(S(int(d)) for d in flatten(L.stride)))
    C = coalesce(static)
    assert is_static(C.shape if isinstance(C.shape, tuple) else (C.shape,))
    assert is_static(C.stride if isinstance(C.stride, tuple) else (C.stride,))
    assert str(size(static)) == "_%d" % size(static)
    dynamic = Layout(tuple(int(s) for s in flatten(L.shape)), tuple(int(d) for d in flatten(L.stride)))
    # the same function; the layouts may differ, as in CuTe (a dynamic 1 is not known to be 1)
    assert values(coalesce(dynamic)) == values(C)


def test_staticness_changes_results_as_in_cute():
    assert str(coalesce(Layout(S(1), S(1)))) == "_1:_0"
    assert str(coalesce(Layout(1, 1))) == "1:1"


@SETTINGS
@given(layouts(), st.data())
def test_fast_paths_agree_with_the_calculator(L, data):
    # Layout(), L.shape/L.stride and L(i) skip text::Value; the calculator's operations do not
    again = Layout(L.shape, L.stride)
    assert str(again) == str(call("make_layout", L.shape, L.stride)) == str(L)
    i = data.draw(st.integers(0, size(L) - 1))
    assert str(L(i)) == str(call("eval", L, i))
    crd = idx2crd(i, L.shape)
    assert str(L(crd)) == str(call("eval", L, crd)) and L(crd) == L(i)


int_tuples = st.recursive(leaf(st.integers(1, 12)), lambda c: st.tuples(c, c) | st.tuples(c, c, c), max_leaves=6)


@SETTINGS
@given(int_tuples, int_tuples, st.integers(0, 200))
def test_tuple_fast_paths_agree_with_the_calculator(a, b, i):
    # size, product, flatten, ... on integer tuples skip text::Value; cotile.call does not
    for name, args in [("size", (a,)), ("rank", (a,)), ("depth", (a,)), ("product", (a,)), ("product_each", (a,)),
                       ("flatten", (a,)), ("prefix_product", (a,)), ("shape_div", (a, b)), ("ceil_div", (a, b)),
                       ("inner_product", (a, b)), ("elem_less", (a, b)), ("congruent", (a, b)),
                       ("compatible", (a, b)), ("idx2crd", (i, a)), ("idx2crd", (i, a, b)),
                       ("crd2idx", (i, a, b))]:
        fn = globals()[name] if name in globals() else getattr(__import__("cotile"), name)
        try:
            want = str(call(name, *args))
        except LayoutError as e:
            with pytest.raises(type(e)) as got:
                fn(*args)
            assert str(got.value) == str(e)
            continue
        assert str(fn(*args)) == want, (name, args)
