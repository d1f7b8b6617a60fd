"""pycute's names and call forms, CuTe's staticness and print format."""

import pytest

import cotile
from cotile import *  # noqa: F403  (what a pycute script does)


def test_layout_from_python_ints_is_dynamic_with_cutes_strides():
    L = Layout((4, 8))
    # CuTe's make_layout: the first stride of a compact layout is the static _1
    assert str(L) == "(4,8):(_1,4)" and repr(L) == str(L)
    assert L.shape == (4, 8) and L.stride == (1, 4)
    assert not is_static(L.shape) and is_static(L.stride[0])
    assert str(Layout((4, 8), (8, 1))) == "(4,8):(8,1)"
    assert str(Layout(S(8), S(2))) == "_8:_2"


def test_static_integers():
    assert str(S(128)) == repr(S(128)) == "_128"
    assert S(4) == 4 and hash(S(4)) == hash(4)
    assert str(S(4) * S(2)) == "_8" and str(S(4) * 2) == "8" and str(3 + S(4)) == "7"
    assert isinstance(S(4), Integer) and isinstance(4, Integer) and issubclass(S, Integer)
    assert not isinstance(True, Integer) and not isinstance(1.0, Integer) and not issubclass(bool, Integer)
    assert str(Layout((S(4), 8))) == "(_4,8):(_1,_4)"


def test_parse_prints_back_and_keeps_staticness():
    for text in ["((_128,_32),_1,_4):((128,_1),_0,_32)", "(_8)", "(_8):(_1)", "_8:_1", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)",
                 "(2,(_12,_2))", "Sw<2,3,3>"]:
        assert str(parse(text)) == text
    t = parse("(2,(_12,_2))")
    assert t == (2, (12, 2)) and isinstance(t[1][0], S) and not isinstance(t[0], S)


def test_call_forms():
    L = Layout((4, 8), (2, 16))
    assert [L(i) for i in range(5)] == [0, 2, 4, 6, 16]
    assert L(1, 2) == 1 * 2 + 2 * 16 == L((1, 2)) == crd2idx((1, 2), L.shape, L.stride)
    assert len(L) == 2 and str(L[1]) == "8:16" and str(L[-1]) == "8:16"
    assert [str(m) for m in L] == ["4:2", "8:16"]
    with pytest.raises(IndexError):
        L[2]
    assert str(L(None, 3)) == "(4):(2)"  # None is CuTe's '_': a slice
    assert L.size() == size(L) == 32 and L.cosize() == cosize(L) == 6 * 1 + 7 * 16 + 1


def test_results_compare_as_pycute_users_compare():
    L = make_layout((4, 8))
    assert shape(L) == (4, 8) and stride(L) == (1, 4)
    assert L == Layout((4, 8), (1, 4)) and hash(L) == hash(Layout((4, 8), (1, 4)))
    assert parse("(_4,_8):(_1,_4)") == Layout((4, 8))  # CuTe compares values
    assert str(parse("(_4,_8):(_1,_4)")) != str(Layout((4, 8)))  # the text tells them apart
    assert Layout((4, 8)) != Layout((8, 4))
    assert (Layout(4) == 4) is False


def test_filter_and_coalesce_with_a_profile_work_mode_by_mode():
    L = parse("(_4,(_2,_3)):(_0,(_1,_2))")
    assert str(filter(L)) == "_6:_1"
    assert str(filter(L, (1, 1))) == "(_1,_6):(_0,_1)" == str(make_layout(filter(L[0]), filter(L[1])))
    assert str(coalesce(L, (1, 1))) == str(make_layout(coalesce(L[0]), coalesce(L[1])))
    with pytest.raises(LayoutError):
        filter(L, (1, 1, 1))


def test_make_layout_concatenates_layouts_as_pycute():
    a, b = Layout(4, 2), Layout(8, 1)
    assert str(make_layout(a, b)) == "(4,8):(2,1)"
    assert make_layout(a, b) == make_layout([a, b]) == make_layout(x for x in (a, b)) == make_layout((a, b))
    assert str(make_layout((S(2), S(3)), (S(3), S(1)))) == "(_2,_3):(_3,_1)"


def test_int_tuple_functions():
    assert size((2, (S(12), S(2)))) == 48 and str(size((2, (S(12), S(2))))) == "48"
    assert str(size((S(2), S(3)))) == "_6"
    assert rank((1, (2, 3))) == 2 and depth((1, (2, 3))) == 2 and str(rank(4)) == "_1"
    assert flatten(((1, 2), 3)) == (1, 2, 3) and product((2, S(3))) == 6
    assert inner_product((2, 3), (4, 5)) == 23 and str(inner_product((S(2), S(3)), (S(4), S(5)))) == "_23"
    assert str(prefix_product((S(2), (3, S(4))))) == "(_1,(_2,6))"
    assert str(prefix_product((2, 3), (S(1), S(2)))) == "(_1,_2)"
    assert shape_div((4, 8), 2) == (2, 8) and shape_div((4, 5, 6), 40) == (1, 1, 3)
    assert idx2crd(5, (4, 8)) == (1, 1) and crd2idx((1, 1), (4, 8)) == 5
    # CuTe's three-argument idx2crd: (i / d) % s per mode, also pycute's form
    assert idx2crd(77, (8, 16), (16, 1)) == (77 // 16 % 8, 77 % 16)
    assert idx2crd(77, (8, 16), 1) == idx2crd(77, (8, 16)) == (77 % 8, 77 // 8)
    assert str(idx2crd(5, S(1), 0)) == "_0"


def test_algebra_matches_each_other():
    A = parse("((_128,_32),_1,_4):((_128,_1),_0,_32)")
    assert str(left_inverse(A)) == "(_128,_128):(_128,_1)"
    assert coalesce(A) == coalesce(A, (1, 1, 1)) or str(coalesce(A, (1, 1, 1))).count(",") > 2
    L = Layout((4, 8), (2, 16))
    B = Layout((2, 4), (1, 4))
    R = composition(L, B)
    assert all(R(i) == L(B(i)) for i in range(size(B)))
    T = Layout(4, 2)
    assert logical_divide(Layout(16), T) == composition(Layout(16), make_layout(T, complement(T, 16)))
    for f in (zipped_divide, tiled_divide, logical_product, zipped_product, tiled_product, blocked_product, raked_product):
        assert size(f(Layout((S(4), S(4))), Layout((S(2), S(2))))) in (16, 64)


def test_swizzle_and_composed_layout():
    sw = Swizzle(3, 4, 3)
    assert str(sw) == "Sw<3,4,3>" and (sw.bits, sw.base, sw.shift) == (3, 4, 3)
    assert sw(0b1110000000) == 0b1110000000 ^ 0b0001110000
    inner = parse("(_8,_64):(_64,_1)")
    C = ComposedLayout(sw, S(0), inner)
    assert str(C) == "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)" and C == parse(str(C))
    assert [C(i) for i in range(16)] == [sw(inner(i)) for i in range(16)]
    assert len(C) == 2 and C.size() == 512 and str(C[1]) == "Sw<3,4,3> o _0 o _64:_1"


def test_cute_mode_returns_cutes_result_with_a_warning():
    # complement((2,1),3):((_3,_3),_1)) is refused by default: CuTe's result has a mode of size 0
    L = parse("((2,1),3):((_3,_3),_1)")
    with pytest.raises(LawError) as e:
        complement(L)
    assert "mode of size 0" in str(e.value)
    with pytest.warns(LawWarning):
        assert str(complement(L, as_cute=True)) == "(1,0,2):(3,6,3)"
    with pytest.warns(LawWarning), cotile.cute_mode():
        assert str(complement(L)) == "(1,0,2):(3,6,3)"
    with pytest.raises(LawError):
        complement(L)  # the mode ends with the block


def test_strict_refuses_where_cute_refuses():
    L = parse("(_4,_8):(8,_1)")
    assert str(left_inverse(L)) != ""
    with pytest.raises(LayoutError) as e:
        left_inverse(L, strict=True)
    assert str(e.value).startswith("left_inverse: CuTe requires static strides (strict mode)")


def test_every_calc_operation_by_name():
    names = {name for name, _, _ in operations()}
    assert {"composition", "make_cotiled_copy", "fmha_gen_q", "prefix_product"} <= names
    assert str(call("left_inverse", "((_128,_32),_1,_4):((_128,_1),_0,_32)")) == "(_128,_128):(_128,_1)"
    assert str(calc("composition(make_layout(left_inverse(((_128,_32),_1,_4):((_128,_1),_0,_32)), _1:_0), "
                    "((_2,(_4,_8)),_16):((_16,(_32,_128)),_1))")) == "((_2,(_4,_8)),_16):((_2048,(_4096,_1)),_128)"


def test_values_pickle_and_copy_exactly():
    import copy
    import pickle
    for v in [parse("((_128,_32),_1,_4):((128,_1),_0,32)"), Swizzle(3, 4, 3), parse("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"),
              S(7), parse("(2,(_12,_2))"), copy_atom("copy.u32", "half_t")]:
        for back in (pickle.loads(pickle.dumps(v)), copy.deepcopy(v)):
            assert back == v and str(back) == str(v) and type(back) is type(v)


def test_calc_in_cute_mode_warns_as_the_command():
    with pytest.warns(LawWarning):
        assert str(calc("complement(((2,1),3):((_3,_3),_1))", as_cute=True)) == "(1,0,2):(3,6,3)"


def test_pycute_helpers():
    assert slice_((None, 3), (4, 8)) == (4,) and slice_(((None, 1), None), ((2, 3), 5)) == (2, 5)
    assert slice_(None, (4, 8)) == ((4, 8),) and slice_(3, 4) == ()
    assert crd2crd(5, (4, 8)) == (1, 1) and crd2crd((1, 2), 32, (4, 8)) == 1 + 2 * 4
    assert elem_scale((2, 3), (4, 5)) == (8, 15) and elem_scale(2, (3, 4)) == 24
    assert tuple_max((1, (7, 3))) == 7 and signum(-3) == -1 and signum(0) == 0
    assert shiftl(1, 3) == 8 and shiftr(8, 3) == 1 and shiftr(1, -3) == 8
    assert isinstance(Layout(4), LayoutBase) and isinstance(parse("Sw<1,2,3> o _0 o _8:_1"), LayoutBase)
    assert not isinstance((4,), LayoutBase)
