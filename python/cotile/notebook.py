"""Notebook renderings: layouts, swizzled layouts, TV layouts and tiled copies display as the
SVG `cotile draw` writes (_repr_svg_), and as their CuTe text above it (_repr_html_)."""

import html

from . import _cotile as _c
from .atoms import TiledCopy, TVLayout

# Above this many cells a drawing is not made (the notebook shows the text).
MAX_CELLS = 4096


def _small(layout):
    return int(_c.size(layout)) <= MAX_CELLS


def _html(text, drawing):
    if drawing is None:
        return None
    return "<pre>%s</pre>\n%s" % (html.escape(text), drawing.svg)


def _layout_drawing(self):
    from .verbs import draw
    return draw("layout", self) if _small(self) else None


def _composed_drawing(self):
    from .verbs import draw
    return draw("swizzle", self) if _small(self.layout) else None


def _tv_drawing(self):
    return self.draw() if _small(self.layout) else None


def _copy_drawing(self):
    from .verbs import draw
    return draw(self) if _small(self.layout_tv) else None


def _install(cls, drawing):
    def repr_svg(self):
        d = drawing(self)
        return None if d is None else d.svg

    def repr_html(self):
        return _html(str(self), drawing(self))

    cls._repr_svg_ = repr_svg
    cls._repr_html_ = repr_html


_install(_c.Layout, _layout_drawing)
_install(_c.ComposedLayout, _composed_drawing)
_install(TVLayout, _tv_drawing)
_install(TiledCopy, _copy_drawing)
