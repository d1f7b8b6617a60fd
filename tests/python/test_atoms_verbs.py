"""Atoms, partitions, explain, verify and draw: the command's results as objects."""

import os
import shutil
import subprocess

import pytest

from cotile import *  # noqa: F403

ATOM_TV = "((_2,_32),_16):((_16,_32),_1)"
DATA = "((_128,_32),_1,_4):((_128,_1),_0,_32)"
CLI = os.environ.get("COTILE_CLI") or shutil.which("cotile") or os.path.join(
    os.path.dirname(__file__), "..", "..", "build", "bin", "cotile")


def cli(*args):
    """The command's output, or None without a built command (its comparisons are then left out)."""
    if not os.path.exists(CLI):
        return None
    return subprocess.run([CLI, *args], capture_output=True, text=True)


def same_as_command(text, *args):
    out = cli(*args)
    return out is None or out.stdout == text


def test_cotiled_copy_and_its_partitions():
    tc = make_cotiled_copy("cp.async.16B", "float_e5m2_t", parse(ATOM_TV), parse(DATA))
    assert str(tc.layout_tv) == "((_2,(_4,_8)),_16):((_1,(_256,_2)),_16)"
    assert tc.keys() == ("tiler", "layout_tv", "layoutS_TV", "layoutD_TV")
    part = tc.partition(parse(DATA), 3)
    assert part.S_offset == 48 and str(part.S) == "((_16,_1),_16,_1,_1):((_1,_0),_1024,_0,_0)"
    same = call("cotiled_copy_partition", "cp.async.16B", "float_e5m2_t", ATOM_TV, DATA, DATA, 3)
    assert part == same


def test_tiled_copy_and_mma():
    tc = make_tiled_copy("copy.u32", "half_t", parse("(_8,_16):(_16,_1)"), parse("(_1,_2):(_0,_1)"))
    assert size(tc.layout_tv) == 8 * 16 * 2
    assert tc.tv.tile == (8, 32)
    mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", parse("(_2,_2,_1):(_1,_2,_0)"))
    assert mma.tile_mnk == (32, 16, 16)
    for operand in "ABC":
        tv = mma.tv(operand)
        # every element of the operand's tile is owned; A and B are shared by the threads of the
        # other dimension, C is owned exactly once
        assert {tv.layout(i) for i in range(size(tv.layout))} == set(range(size(tv.tile))), operand
        assert tv._repr_svg_().startswith("<svg")
    assert verify("tv", mma.tv("C").layout, tile=mma.tv("C").tile)
    assert not verify("tv", mma.tv("A").layout, tile=mma.tv("A").tile)
    p = mma.partition(parse("(_32,_16):(_16,_1)"), 5, "A")
    assert set(p.keys()) == {"thrfrg_A", "partition_A", "offset"}


def test_explain_prints_as_the_command():
    d = explain()
    assert d["data_layout"].text == DATA
    assert str(d["inv_data_layout"].value) == "((_128,_128),_1):((_128,_1),_0)"
    assert str(d["data_layout"].layout) == DATA and d["problem shape"].layout is None
    step = d["tSgQ = partition_A(gQ)"]
    assert step.formula.startswith("a(mk,rm,rk) = ") and step.why
    assert same_as_command(str(d), "explain")
    op = explain("composition", parse("(_4,_8):(_2,_16)"), parse("(_2,_4):(_1,_4)"))
    assert op.title and len(op.steps) > 2
    assert same_as_command(str(op), "explain", "composition", "(_4,_8):(_2,_16)", "(_2,_4):(_1,_4)")


def test_explain_a_tiled_copy_made_in_python():
    tc = make_cotiled_copy("cp.async.16B", "float_e5m2_t", ATOM_TV, DATA)
    d = explain(tc)
    assert str(d) == str(explain("cotiled-copy", atom="cp.async.16B", elem="float_e5m2_t", atom_tv=ATOM_TV, data=DATA))
    assert same_as_command(str(d), "explain", "cotiled-copy", "--atom", "cp.async.16B", "--elem", "float_e5m2_t",
                           "--atom-tv", ATOM_TV, "--data", DATA)


def test_verify_reports():
    bad = verify("injective", parse("(_4,_8):(_1,_2)"))
    assert not bad and not bad.holds and bad.checks[0].counterexample
    assert str(bad).startswith("FAIL injective: ")
    assert same_as_command(str(bad), "verify", "injective", "(_4,_8):(_1,_2)")
    assert verify("bijective", Layout((4, 8)))
    tc = make_cotiled_copy("cp.async.16B", "float_e5m2_t", ATOM_TV, DATA)
    report = verify(tc)
    assert report.holds and len(report.checks) == 5


def test_draw_svg_and_html():
    L = Layout((2, 4), (4, 1))
    d = draw(L)
    assert d.svg.startswith("<svg") and d.cells == 8 and "<html>" in d.html
    assert same_as_command(d.svg, "draw", "layout", str(L))
    sw = draw(parse("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"), elem_bytes=2)
    assert "bank" in sw.svg and sw.subject == "swizzle"


def test_notebook_renderings():
    L = Layout((4, 8))
    assert L._repr_svg_().startswith("<svg") and L._repr_html_().startswith("<pre>(4,8):(_1,4)</pre>")
    assert parse("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")._repr_svg_().startswith("<svg")
    tc = make_cotiled_copy("cp.async.16B", "float_e5m2_t", ATOM_TV, DATA)
    assert "partition_S" in tc._repr_svg_() and tc.tv._repr_svg_().startswith("<svg")
    assert Layout((128, 128))._repr_svg_() is None  # too large to draw: the text is shown
