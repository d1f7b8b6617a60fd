"""explain, verify and draw: the command's verbs with Python values and keywords.

explain("composition", A, B) is `cotile explain composition A B`; keywords are the command's
options (atom_tv=L is --atom-tv L, strict=True is --strict); values are passed in CuTe's print
format, so the derivation is the command's own."""

from . import _cotile as _c


def _text(v):
    return v if isinstance(v, str) else _c.to_text(v)


def _argv(positional, flags):
    argv = [_text(p) for p in positional]
    for key, value in flags.items():
        if value is None or value is False:
            continue
        option = "--" + key.replace("_", "-")
        if value is True:
            argv.append(option)
        else:
            argv += [option, _text(value)]
    return argv


def _subject_flags(subject, flags):
    # A tiled copy or MMA made in Python carries the options it was made with.
    made = getattr(subject, "_flags", None)
    if made is None:
        return None
    merged = dict(made)
    merged.update(flags)
    return merged


def explain(subject=None, *args, **flags):
    """The derivation `cotile explain` prints, as a Derivation (steps with name, value, formula,
    domain and why; str() is the command's text).

    explain()                                          the FMHA decode kernel's FP8 Q-load chain (preset fmha-gen-q)
    explain(preset="fmha-gen-q", elem="fp16", head_dim=64, m_tile=64)
    explain("composition", A, B)                       any algebra operation
    explain("cotiled-copy", atom=..., elem=..., atom_tv=..., data=...)
    explain("partition", atom=..., elem=..., thr=..., val=..., tensor=..., thread=5)
    explain(tiled_copy)                                a TiledCopy made by make_(co)tiled_copy
    """
    made = _subject_flags(subject, flags)
    if made is not None:
        kind = made.pop("_kind")
        return _c.explain_args(_argv([kind], made))
    positional = [] if subject is None else [subject]
    return _c.explain_args(_argv(positional + list(args), flags))


def verify(what, *args, **flags):
    """The checks `cotile verify` makes, as a Report (truthy when every check holds; str() is
    the command's PASS/FAIL text).

    verify("injective", L)  verify("bijective", L)  verify("surjective", L, codomain=N)
    verify("tv", TV, tile=(M, N))   verify("inverse", "left", L)   verify("law", "composition", A, B)
    verify("copy", atom=..., elem=..., atom_tv=..., data=...) or verify(tiled_copy)
    """
    made = _subject_flags(what, flags)
    if made is not None:
        made.pop("_kind")
        return _c.verify_args(_argv(["copy"], made))
    return _c.verify_args(_argv([what] + list(args), flags))


def draw(what, *args, **flags):
    """The SVG `cotile draw` writes, as a Drawing (.svg, .html with hover tooltips; it renders
    itself in a notebook).

    draw("layout", L)   draw("tv", TV, tile=(M, N))   draw("swizzle", SL, elem_bytes=2)
    draw("copy", atom=..., ...) or draw(tiled_copy)   draw(L) picks the subject from the value
    """
    made = _subject_flags(what, flags)
    if made is not None:
        made.pop("_kind")
        return _c.draw_args(_argv(["copy"], made))
    if isinstance(what, _c.ComposedLayout):
        return _c.draw_args(_argv(["swizzle", what] + list(args), flags))
    if isinstance(what, _c.Layout):
        return _c.draw_args(_argv(["layout", what] + list(args), flags))
    return _c.draw_args(_argv([what] + list(args), flags))


def _step_layout(step):
    """The step's value when it is a layout (or a swizzled layout), else None."""
    value = step.value
    return value if isinstance(value, (_c.Layout, _c.ComposedLayout)) else None


_c.Step.layout = property(_step_layout)
