"""What the Python GPU tests of the decode module share: a skip (exit 77) without PyTorch or a GPU,
the library's path from the command line, and checks that count failures.

    torch = torch_or_skip()            # before anything else imports torch
    use_library(sys.argv)              # python/ on the path, COTILE_ATTENTION_LIB from argv[1]
    check("name", cond, "detail"); raises("name", fn, "word"); finish()
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
failures = 0


def torch_or_skip(needs=()):
    """PyTorch, or exit 77 when it is missing, lacks one of `needs` ("library.register_fake"), or sees no GPU."""
    try:
        import torch
    except ImportError:
        print("no PyTorch: skipped")
        sys.exit(77)
    for path in needs:
        obj = torch
        for part in path.split("."):
            obj = getattr(obj, part, None)
        if obj is None:
            print(f"PyTorch without torch.{path}: skipped")
            sys.exit(77)
    if not torch.cuda.is_available():
        print("no GPU: skipped")
        sys.exit(77)
    return torch


def use_library(argv):
    """python/ importable; the library the command line names (argv[1]), if it names one."""
    if len(argv) > 1:
        os.environ["COTILE_ATTENTION_LIB"] = argv[1]
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))


def check(name, cond, detail=""):
    global failures
    print(("ok   " if cond else "FAIL ") + name + ("" if cond else ": " + detail))
    failures += 0 if cond else 1


def raises(name, fn, words, kind=None):
    """A check that fn() raises ValueError, TypeError or RuntimeError (`kind` where given) with `words`
    in its message."""
    try:
        fn()
    except (ValueError, TypeError, RuntimeError) as e:
        check(f"{name} -> {type(e).__name__}", words in str(e) and (kind is None or type(e) is kind),
              f"{type(e).__name__} {str(e)!r}, expected {kind.__name__ if kind else 'an error'} with {words!r}")
        return
    check(f"{name} raises", False, "no exception")


def finish():
    print(f"{'FAILED' if failures else 'passed'}: {failures} failure(s)")
    sys.exit(1 if failures else 0)
