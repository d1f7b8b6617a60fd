"""The Python-side types of cotile's values: static integers, tuples printed as CuTe prints
them, named results, and the exceptions. The engine (cotile._cotile) creates these."""

import abc


class Integer(abc.ABC):
    """pycute's Integer: what counts as an integer (Python ints, static or not; not bool)."""

    @classmethod
    def __subclasshook__(cls, c):
        if cls is Integer:
            return issubclass(c, int) and not issubclass(c, bool)
        return NotImplemented


def _static_or_int(a, b, r):
    return S(r) if isinstance(a, S) and isinstance(b, S) else r


class S(int):
    """A static integer, CuTe's Int<N>: printed _N. Plain Python ints are dynamic (printed N).

    A static integer equals (and hashes as) the same Python int, as CuTe compares values:
    S(4) == 4. Arithmetic between static integers stays static; with a dynamic one it is
    dynamic, as in CuTe. str(), repr() and cotile.is_static tell them apart."""

    __slots__ = ()

    def __repr__(self):
        return "_%d" % int(self)

    __str__ = __repr__

    def __add__(self, o):
        return _static_or_int(self, o, int(self) + o) if isinstance(o, int) else NotImplemented

    def __radd__(self, o):
        return _static_or_int(o, self, o + int(self)) if isinstance(o, int) else NotImplemented

    def __sub__(self, o):
        return _static_or_int(self, o, int(self) - o) if isinstance(o, int) else NotImplemented

    def __rsub__(self, o):
        return _static_or_int(o, self, o - int(self)) if isinstance(o, int) else NotImplemented

    def __mul__(self, o):
        return _static_or_int(self, o, int(self) * o) if isinstance(o, int) else NotImplemented

    def __rmul__(self, o):
        return _static_or_int(o, self, o * int(self)) if isinstance(o, int) else NotImplemented

    def __floordiv__(self, o):
        return _static_or_int(self, o, int(self) // o) if isinstance(o, int) else NotImplemented

    def __rfloordiv__(self, o):
        return _static_or_int(o, self, o // int(self)) if isinstance(o, int) else NotImplemented

    def __mod__(self, o):
        return _static_or_int(self, o, int(self) % o) if isinstance(o, int) else NotImplemented

    def __rmod__(self, o):
        return _static_or_int(o, self, o % int(self)) if isinstance(o, int) else NotImplemented

    def __neg__(self):
        return S(-int(self))


def is_static(x):
    """True for a static integer, or a tuple whose leaves all are."""
    if isinstance(x, tuple):
        return all(is_static(e) for e in x)
    return isinstance(x, S)


def _text(v):
    return "_" if v is None else str(v)


class IntTuple(tuple):
    """A tuple the engine returned: a plain tuple (equal to (4, 8) when its leaves are 4 and 8)
    that prints in CuTe's format, (_4,8)."""

    __slots__ = ()

    def __str__(self):
        return "(" + ",".join(_text(e) for e in self) + ")"

    __repr__ = __str__


class Record:
    """Named results (copy_atom, make_tiled_copy, partitions, ...): fields by attribute, by name
    or in order; str() is the command's line (name=value, TAB-separated)."""

    __slots__ = ("_names", "_values")

    def __init__(self, names, values):
        object.__setattr__(self, "_names", tuple(names))
        object.__setattr__(self, "_values", tuple(values))

    def __getattr__(self, name):
        try:
            return self._values[self._names.index(name)]
        except ValueError:
            raise AttributeError(name) from None

    def __getitem__(self, key):
        if isinstance(key, str):
            try:
                return self._values[self._names.index(key)]
            except ValueError:
                raise KeyError(key) from None
        return self._values[key]

    def keys(self):
        return self._names

    def values(self):
        return self._values

    def items(self):
        return tuple(zip(self._names, self._values))

    def __len__(self):
        return len(self._names)

    def __iter__(self):
        return iter(self._values)

    def __eq__(self, other):
        return isinstance(other, Record) and self.items() == other.items()

    def __hash__(self):
        return hash(self.items())

    def __str__(self):
        return "\t".join("%s=%s" % (n, _text(v)) for n, v in zip(self._names, self._values))

    def __repr__(self):
        return "\n".join("%s = %s" % (n, _text(v)) for n, v in zip(self._names, self._values))


class LayoutError(ValueError):
    """An engine error: the message names the operation, the rule, the values and a fix."""

    op = ""
    rule = ""


class LawError(LayoutError):
    """A result that violates its operation's law (refused; as_cute=True returns CuTe's result)."""


class ArgumentTypeError(LayoutError, TypeError):
    """An argument of the wrong kind (a tuple where a layout is needed, ...)."""


class LawWarning(UserWarning):
    """In CuTe mode: a law CuTe's result violates."""


def _record_reduce(self):
    # (a TiledCopy or TiledMMA pickles as its fields: a Record)
    return (Record, (self._names, self._values))


Record.__reduce__ = _record_reduce
