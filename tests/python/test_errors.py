"""Errors: cotile.LayoutError (a ValueError) with the engine's message word for word; wrong
argument types raise TypeError naming the argument; no input crashes the interpreter."""

import pytest
from hypothesis import given, settings, strategies as st

import cotile
from cotile import *  # noqa: F403


def message(f):
    with pytest.raises(Exception) as e:
        f()
    return e.type, str(e.value)


def test_parse_error_gives_the_column():
    t, m = message(lambda: parse("(_4,_8"))
    assert t is LayoutError and issubclass(t, ValueError)
    assert m == "parse: expected ',' or ')' at column 7, found end of input\n  (_4,_8\n        ^"


def test_engine_messages_word_for_word():
    assert message(lambda: Layout((4, 8), (1, 4, 2))) == (
        LayoutError, "make_layout: shape and stride must be congruent\n  shape = (4,8)\n  stride = (1,4,2)")
    assert message(lambda: shape_div(3, 2)) == (
        LayoutError, "shape_div: divisibility condition a % b == 0 or b % a == 0 violated\n  a = 3\n  b = 2")
    assert message(lambda: left_inverse(parse("(_4,_8):(8,_1)"), strict=True)) == (
        LayoutError, "left_inverse: CuTe requires static strides (strict mode)\n  layout = (_4,_8):(8,_1)\n"
                     "  fix: make the strides static (Int<N>), or drop --strict to invert the run-time values")
    assert message(lambda: call("nope", 1)) == (LayoutError, "unknown function 'nope' (cotile calc --list shows the functions)")
    # the integer fast path refuses as the operation does (a negative extent counts no coordinates)
    assert message(lambda: idx2crd(5, (-4, 2))) == (
        LayoutError, "idx2crd: a layout's shape must not be negative: an extent counts coordinates\n"
                     "  shape = (-4,2)\n  fix: give every mode a size >= 0")
    assert message(lambda: crd2idx(5, (-4, 2), (1, 4)))[1].startswith("crd2idx: a layout's shape must not be negative")


def test_error_carries_op_and_rule():
    with pytest.raises(LayoutError) as e:
        shape_div(3, 2)
    assert e.value.op == "shape_div" and e.value.rule == "divisibility condition a % b == 0 or b % a == 0 violated"


def test_law_error_names_the_law():
    with pytest.raises(LawError) as e:
        complement(parse("((2,1),3):((_3,_3),_1)"))
    assert str(e.value).startswith("complement: (L, C) injective, C ordered, cosize((L, C)) >= size(T) fails")
    assert isinstance(e.value, LayoutError)


def test_wrong_types_raise_type_error_naming_the_argument():
    t, m = message(lambda: composition(Layout(4), 1.5))
    assert t is TypeError and "argument 'layoutB'" in m and m.endswith("not float")
    t, m = message(lambda: Layout("(4,8)"))
    assert t is TypeError and "argument 'shape'" in m
    t, m = message(lambda: Layout((4, 8), [1.0, 2]))
    assert t is TypeError and "argument 'stride'" in m
    t, m = message(lambda: coalesce(Layout(4), foo=1))
    assert t is TypeError and m == "coalesce() got an unexpected keyword argument 'foo'"
    t, m = message(lambda: Layout((4, 8))(1, foo=2))
    assert t is TypeError and m == "Layout.__call__() got an unexpected keyword argument 'foo'"
    t, m = message(lambda: call("coalesce", Layout(4), bar=True))
    assert t is TypeError and m == "call() got an unexpected keyword argument 'bar'"
    t, m = message(lambda: size())
    assert t is TypeError and m == "size() missing required argument 'a'"
    t, m = message(lambda: complement(Layout(4), 1, 2))
    assert t is TypeError and m == "complement() takes at most 2 arguments (3 given)"
    t, m = message(lambda: size(True))
    assert t is TypeError and "not bool" in m


def test_a_value_of_the_wrong_kind_is_both_a_layout_error_and_a_type_error():
    t, m = message(lambda: composition((4, 8), Layout(4)))
    assert t is ArgumentTypeError and issubclass(t, TypeError) and issubclass(t, LayoutError)
    assert m == "composition: argument 1 must be a layout, got the tuple (4,8)"


def test_out_of_range_integers_and_swizzles():
    t, m = message(lambda: Layout(2 ** 70))
    assert t is LayoutError and m == "Layout: argument 'shape' = 1180591620717411303424 does not fit in 64 bits"
    t, m = message(lambda: Swizzle(3, 4, 2))
    assert t is LayoutError and m == ("Swizzle: requires 0 <= B <= |S|, 0 <= M and M + |S| + B <= 63 (bits 0 to 62 of "
                                      "an offset)\n  B = 3\n  M = 4\n  S = 2")
    # the engine's rule, as the text's Sw<B,M,S>: bits past 62 would leave the offset or reach its sign
    for b, m_, s in [(20, 20, 40), (1, 32, 31), (64, 0, 64), (1, 0, -63)]:
        t, m = message(lambda: Swizzle(b, m_, s))
        assert t is LayoutError and m.startswith("Swizzle: requires 0 <= B <= |S|"), (b, m_, s)
    assert Swizzle(1, 31, 31)(1 << 62) == (1 << 62) | (1 << 31)


def test_deep_nesting_is_refused_not_a_crash():
    t, m = message(lambda: parse("(" * 70 + "1"))
    assert t is LayoutError and "at most 64 levels of nesting" in m


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="(_),:0123456789Sw<>o -", max_size=40))
def test_any_text_parses_or_raises_layout_error(text):
    try:
        v = parse(text)
    except LayoutError:
        return
    assert cotile.to_text(parse(cotile.to_text(v))) == cotile.to_text(v)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["composition", "complement", "left_inverse", "right_inverse", "logical_divide", "coalesce",
                        "zipped_divide", "logical_product", "blocked_product", "raked_product", "shape_div", "size"]),
       st.lists(st.recursive(st.integers(-3, 40), lambda c: st.tuples(c, c), max_leaves=6), min_size=1, max_size=2),
       st.booleans())
def test_any_call_returns_or_raises_a_python_exception(op, args, as_layouts):
    try:
        values = [Layout(a) for a in args] if as_layouts else args
        cotile.call(op, *values)
    except (LayoutError, TypeError):
        pass


def test_deeply_nested_python_tuples_are_refused_not_a_crash():
    t = 1
    for _ in range(100000):
        t = (t,)
    for f in (lambda: size(t), lambda: Layout(t), lambda: Layout(4)(t)):
        with pytest.raises(LayoutError) as e:
            f()
        assert "nested deeper than 64 levels" in str(e.value)


def test_a_swizzle_too_large_to_measure_is_refused():
    assert Swizzle(3, 4, 3).size() == 1 << 10
    assert Swizzle(1, 30, 31).size() == 1 << 62
    t, m = message(lambda: Swizzle(1, 31, 31).size())
    assert t is LayoutError and m == "Swizzle.size: the domain 2^63 does not fit in 64 bits"
