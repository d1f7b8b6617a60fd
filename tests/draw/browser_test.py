#!/usr/bin/env python3
"""Render `cotile draw --html` pages in headless Chromium as a person would: the DOM after the
page's script ran (cell count, labels, tooltips), no console errors, and a screenshot."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

COTILE = sys.argv[1]
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if chromium is None:
    if os.environ.get("COTILE_REQUIRE_BROWSER") == "1":
        print("FAIL chromium is not installed (.ci/run installs Debian's chromium)")
        sys.exit(1)
    print("chromium not installed: skipped")
    sys.exit(77)

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]
failures = 0
checks = 0


def check(name, cond, detail=""):
    global failures, checks
    checks += 1
    print(("ok   " if cond else "FAIL ") + name + ("" if cond else ": " + detail))
    if not cond:
        failures += 1


def browser(html, *extra):
    with tempfile.TemporaryDirectory() as profile:
        p = subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
                            "--virtual-time-budget=3000", *extra, "file://" + html],
                           capture_output=True, text=True, timeout=180)
    return p


work = tempfile.mkdtemp()
cases = [
    ("layout", ["draw", "layout", "((_2,_4),(_2,_8)):((_1,_4),(_2,_16))"], 128, ["17", "(1,2)"]),
    ("tv", ["draw", "tv", "((_2,(_4,_8)),_16):((_1,(_256,_2)),_16)", "--tile", "((_2,_8,_16),_1,_4)"], 1024, ["T0V0", "T63V15"]),
    ("copy", ["draw", "copy", "--atom", "copy.u32", "--elem", "half_t", "--thr", "(_8,_16):(_16,_1)", "--val",
              "(_1,_2):(_0,_1)"], 512, ["T127V1", "source (partition_S)", "destination (partition_D)"]),
    ("swizzle", ["draw", "swizzle", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"], 512, ["bank", "1-way"]),
]
for name, args, cells, labels in cases:
    html = os.path.join(work, name + ".html")
    subprocess.run([COTILE, *args, "--html", "-o", html], check=True)
    p = browser(html, "--dump-dom")
    dom = p.stdout
    m = re.search(r'data-cells="(\d+)"', dom)
    check(f"{name}: the page's script ran and counted the cells", m is not None and int(m.group(1)) == cells,
          f"data-cells={m.group(1) if m else None}, expected {cells}")
    check(f"{name}: data-ready", 'data-ready="1"' in dom)
    check(f"{name}: one rect per cell", dom.count('class="cell"') == cells, str(dom.count('class="cell"')))
    for label in labels:
        check(f"{name}: shows '{label}'", label in dom)
    errors = [l for l in p.stderr.splitlines() if "CONSOLE" in l and ("Uncaught" in l or "Error" in l)]
    check(f"{name}: no console errors", not errors, "\n".join(errors))
    png = os.path.join(work, name + ".png")
    browser(html, f"--screenshot={png}", "--window-size=1400,900")
    ok = os.path.exists(png) and os.path.getsize(png) > 1000
    if ok:
        with open(png, "rb") as f:
            head = f.read(24)
        ok = head[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(head[16:20], "big") == 1400
    check(f"{name}: screenshot rendered", ok)

print(f"{checks - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
