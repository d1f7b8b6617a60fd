"""The golden corpus (../shared/golden, format in its README.md) through the Python API: each
case's arguments are read with cotile.parse, the operation is called through the binding
(cotile.call), and the result's text is compared with the expected text character for character.

As `cotile golden` does, every case runs twice: in CuTe's mode (as_cute=True: the corpus is
CuTe's output, so this is the comparison) and in the default mode, where a CuTe result that
violates its operation's law is refused (a LawError: counted as `refused`, not failed) or
replaced by another result that satisfies the law (counted as `lawful`)."""

import warnings

from . import _cotile as _c
from ._types import LawError, LawWarning, Record


class Report:
    def __init__(self):
        self.passed = self.failed = 0                   # CuTe's mode
        self.checked_passed = self.checked_failed = 0   # the default mode
        self.refused = []                               # (file, line, law's first line)
        self.lawful = []                                # (file, line, law CuTe's breaks, cotile's result)
        self.failures = []                              # (file, line, mode, expected, got)

    def __str__(self):
        return ("%d passed, %d failed; checked: %d passed, %d refused (CuTe's result violates its law), "
                "%d answered lawfully where CuTe's result violates its law, %d failed"
                % (self.passed, self.failed, self.checked_passed, len(self.refused), len(self.lawful),
                   self.checked_failed))


def _text(v):
    return "_" if v is None else _c.to_text(v)


def _offsets_taken_in_order(layout, expected):
    # tile_to_shape's offsets are given at indices that are not printed: each offset must be taken
    # by the layout at an index, and those indices must increase strictly.
    inner = layout.layout if isinstance(layout, _c.ComposedLayout) else layout
    first = {}
    for i in range(int(_c.size(inner)) - 1, -1, -1):
        first[int(layout(i))] = i
    previous = -1
    for offset in _c.parse(expected):
        index = first.get(int(offset))
        if index is None or index <= previous:
            return "offsets not taken at increasing indices (offset %d)" % int(offset)
        previous = index
    return ""


def check_case(fields, as_cute):
    """'' when the case (its TAB-separated fields) gives the expected text, else what it gave."""
    arrow = fields.index("=>")
    op, expected = fields[0], fields[arrow + 1:]
    args = [_c.parse(f) for f in fields[1:arrow]]
    got = _c.call(op, *args, as_cute=as_cute)
    if not isinstance(got, Record) and expected and expected[0].startswith("layout="):
        got = Record(["layout"], [got])
    if not isinstance(got, Record):
        text = _text(got)
        return "" if len(expected) == 1 and text == expected[0] else text
    mismatch = []
    for e in expected:
        name, _, value = e.partition("=")
        if op == "tile_to_shape" and name == "offsets":
            why = _offsets_taken_in_order(got["layout"], value)
            if why:
                mismatch.append(why)
            continue
        if name not in got.keys():
            mismatch.append(name + "=(missing)")
        elif _text(got[name]) != value:
            mismatch.append(name + "=" + _text(got[name]))
    return "\t".join(mismatch)


def cases(path):
    """(line number, fields) of each case of a corpus file."""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                yield number, line.split("\t")


def _run(fields, as_cute):
    try:
        return check_case(fields, as_cute), None
    except LawError as e:
        law = str(e).split("\n")[0]
        return "error: " + law, law
    except (ValueError, TypeError) as e:
        return "error: " + str(e).replace("\n", " "), None


def run_file(path, report=None):
    """Runs every case of one corpus file into `report` (a new Report when None)."""
    report = report or Report()
    for number, fields in cases(path):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", LawWarning)
            got, _ = _run(fields, True)
        violated = [str(w.message).split("\n")[0] for w in caught if issubclass(w.category, LawWarning)]
        if got == "":
            report.passed += 1
        else:
            report.failed += 1
            report.failures.append((path, number, "as CuTe", fields, got))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LawWarning)
            got_checked, law = _run(fields, False)
        if got_checked == "":
            report.checked_passed += 1
        elif law is not None and got == "":
            report.refused.append((path, number, law))
        elif got == "" and violated and not got_checked.startswith("error: "):
            report.lawful.append((path, number, violated[0], got_checked))
        else:
            report.checked_failed += 1
            report.failures.append((path, number, "checked", fields, got_checked))
    return report
