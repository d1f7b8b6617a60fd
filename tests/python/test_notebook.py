"""docs/python_qload.ipynb executed headless (nbclient): it runs without errors, derives the
golden corpus's fmha_gen_q chain, renders the tiled copy as SVG and prints `cotile explain`."""

import json
import os
import sys

import pytest

import cotile
from conftest import GOLDEN_DIR

if os.environ.get("COTILE_REQUIRE_NOTEBOOK"):  # CI: the notebook must run, not be skipped
    import nbclient
    import nbformat
else:
    nbclient = pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")

NOTEBOOK = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python_qload.ipynb")


def corpus_case(elem):
    with open(os.path.join(GOLDEN_DIR, "fmha_gen_q.txt"), encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "fmha_gen_q" and fields[1] == elem:
                arrow = fields.index("=>")
                return dict(x.split("=", 1) for x in fields[arrow + 1:])
    pytest.skip("no fmha_gen_q case for " + elem)


def cell_text(cell):
    text = []
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream":
            text.append(out["text"])
        elif "data" in out:
            text.append(out["data"].get("text/plain", ""))
    return "".join(text)


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    # The kernel is this interpreter (the one cotile is installed in), not whatever `python3`
    # the system's kernelspec names: a kernelspec first on JUPYTER_PATH says so.
    jupyter = tmp_path_factory.mktemp("jupyter")
    os.makedirs(jupyter / "kernels" / "python3")
    with open(jupyter / "kernels" / "python3" / "kernel.json", "w") as f:
        json.dump({"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                   "display_name": "Python 3 (cotile tests)", "language": "python"}, f)
    os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(jupyter), os.environ.get("JUPYTER_PATH")) if p)
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path_factory.mktemp("nb"))}})
    client.execute()  # raises CellExecutionError on any failing cell
    return [c for c in nb.cells if c.cell_type == "code"]


def test_no_cell_fails(executed):
    for cell in executed:
        assert all(out["output_type"] != "error" for out in cell.get("outputs", []))


def test_the_chain_is_the_corpus_chain(executed):
    want = corpus_case("float_e5m2_t")
    text = "".join(cell_text(c) for c in executed)
    for name, printed in [("data_layout", "data_layout ="), ("coalesce_data_layout", "coalesce(data_layout)     ="),
                          ("left_inverse_data_layout", "left_inverse(data_layout) ="),
                          ("inv_data_layout", "inv_data_layout           ="), ("layout_tv_data", "layout_tv_data ="),
                          ("layout_tv", "layout_tv =")]:
        assert "%s %s\n" % (printed, want[name]) in text, name


def test_the_copy_renders_as_svg(executed):
    rich = [out["data"] for c in executed for out in c.get("outputs", []) if out["output_type"] == "execute_result"]
    svgs = [d for d in rich if "image/svg+xml" in d]
    assert svgs and "partition_S" in svgs[0]["image/svg+xml"] and "text/html" in svgs[0]


def test_verify_passes_and_explain_is_the_commands(executed):
    text = "".join(cell_text(c) for c in executed)
    assert "PASS layoutS_TV covers the tile once" in text and "FAIL" not in text
    assert str(cotile.explain()) in text
