#!/usr/bin/env python3
"""The regression report's figures render without clipping (docs/regression.md).

usage: render_figures.py PIVOT WORK_DIR [SVG...]

Writes a report with `pivot regress --report` for the cases whose runs the figures are drawn
from (and a case that asks for a figure of its own), then checks each of its SVG figures, and
each SVG given on the command line (the committed figures of docs/regression/), by rendering
them to PNG with rsvg-convert (Debian's librsvg2-bin) and reading the pixels with Pillow
(python3-pil):

- the legend's box lies inside the plot area, or wholly beside it, and inside the picture;
- the legend's labels, rendered alone, lie inside the legend's box (the text is measured by
  the renderer, not by the plotter's estimate);
- every text, rendered alone, keeps at least a pixel away from the picture's edges.

Exit 0 when every figure passes, 1 otherwise, 77 (CTest's skip) with a message when
rsvg-convert or Pillow is missing (tools/setup.sh installs both).
"""
import copy
import glob
import io
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", NS)

try:
    from PIL import Image
except ImportError:
    print("skipped: the Python package Pillow is missing (apt-get install python3-pil)")
    sys.exit(77)
RSVG = shutil.which("rsvg-convert")
if not RSVG:
    print("skipped: rsvg-convert is missing (apt-get install librsvg2-bin)")
    sys.exit(77)

# the cases and golden runs the report's figures are drawn from, and one that asks for its own
FIGURE_RUNS = ["case:chain_6_links", "case:chain_6_links_baumgarte", "case:chain_6_links_none",
               "case:rolling_sphere", "case:restitution_ball", "case:pendulum",
               "case:dzhanibekov", "golden:default", "case:bowl_step_01ms",
               "case:bowl_step_16ms", "case:bowl_step_64ms"]


def rect(element):
    x, y = float(element.get("x", 0)), float(element.get("y", 0))
    return x, y, x + float(element.get("width")), y + float(element.get("height"))


def inside(inner, outer, slack=0.0):
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack and
            inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def render_only(root, keep):
    """renders the picture with only the elements for which keep(element) is true, on white;
    returns its size and the bounding box of its dark pixels (None when there are none)"""
    doc = copy.deepcopy(root)

    def prune(parent):
        for child in list(parent):
            if keep(child):
                continue
            if child.tag == f"{{{NS}}}g":
                prune(child)
                if len(child):
                    continue
            parent.remove(child)
    prune(doc)
    png = subprocess.run([RSVG, "--format", "png", "--background-color", "white"],
                         input=ET.tostring(doc), capture_output=True, check=True).stdout
    image = Image.open(io.BytesIO(png)).convert("L")
    dark = image.point(lambda v: 255 if v < 200 else 0)
    return image.size, dark.getbbox()


def check_figure(path):
    problems = []
    root = ET.parse(path).getroot()
    width, height = float(root.get("width")), float(root.get("height"))
    plot = legend = None
    for e in root.iter():
        if e.get("class") == "plot-area":
            plot = rect(e)
        if e.get("class") == "legend-box":
            legend = rect(e)
    if plot is None:
        return [f"{path}: no element of class plot-area"]
    canvas = (0.0, 0.0, width, height)
    if legend is not None:
        if not inside(legend, canvas):
            problems.append(f"legend box {legend} leaves the picture {canvas}")
        beside = legend[0] >= plot[2] or legend[2] <= plot[0] or legend[1] >= plot[3]
        if not beside and not inside(legend, plot):
            problems.append(f"legend box {legend} neither inside the plot area {plot} nor beside it")
        size, text_box = render_only(root, lambda e: e.get("class") == "legend-label")
        if text_box is None:
            problems.append("the legend's labels render to nothing")
        elif not inside(text_box, legend, slack=0.5):
            problems.append(f"legend labels {text_box} (rendered) overflow the legend box {legend}")
    size, all_text = render_only(root, lambda e: e.tag == f"{{{NS}}}text")
    if all_text is None:
        problems.append("no text renders")
    elif not (all_text[0] >= 1 and all_text[1] >= 1 and all_text[2] <= size[0] - 1 and
              all_text[3] <= size[1] - 1):
        problems.append(f"text {all_text} (rendered) touches the picture's edge {size}")
    return [f"{path}: {p}" for p in problems]


def main():
    pivot, work, *given = sys.argv[1:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    report = os.path.join(work, "report", "report.md")
    r = subprocess.run([pivot, "regress", "--filter", "^(" + "|".join(FIGURE_RUNS) + ")$",
                        "--report", report, "--out", os.path.join(work, "runs")],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(f"pivot regress --report failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
        return 1
    written = sorted(glob.glob(os.path.join(work, "report", "*.svg")))
    names = [os.path.basename(f) for f in written]
    for expected in ("report-cline-chain.svg", "report-rolling-sphere.svg", "report-energy.svg",
                     "report-case-restitution_ball.svg"):
        if expected not in names:
            print(f"the report has no {expected} (it has {names})")
            return 1
    problems = []
    for svg in written + given:
        problems += check_figure(svg)
    for p in problems:
        print(p)
    print(f"{len(written) + len(given)} figures rendered, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
