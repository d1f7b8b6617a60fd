// A `cotile draw` drawing on a canvas: the panels and cells the engine computed (labels, hover
// text, colours) at the geometry of the command's SVG, which at tens of thousands of cells is
// too many elements for a page to lay out quickly. Hovering a cell shows its text in #tip, as
// the HTML page `cotile draw --html` writes does.
window.CotileDrawing = (function () {
  'use strict';

  // Draw `d` (cotile.draw's answer) into `canvas`; returns the cell under a point, for hovering.
  function paint(canvas, d) {
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.ceil(d.width * dpr);
    canvas.height = Math.ceil(d.height * dpr);
    canvas.style.width = d.width + 'px';
    canvas.style.height = d.height + 'px';
    const g = canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.fillStyle = 'white';
    g.fillRect(0, 0, d.width, d.height);
    const cw = d.cell_w, ch = d.cell_h;
    const grids = [];
    let count = 0;
    for (const p of d.panels) {
      g.fillStyle = '#000';
      g.font = '14px monospace';
      g.textAlign = 'left';
      g.textBaseline = 'alphabetic';
      g.fillText(p.title, p.x, 24);
      // The cell at each grid position: the last one drawn there is the one on top.
      const grid = new Int32Array(p.rows * p.cols).fill(-1);
      let overlap = false;
      p.cells.forEach((c, i) => {
        const at = c[0] * p.cols + c[1];
        overlap = overlap || grid[at] >= 0;
        grid[at] = i;
      });
      // One fill colour at a time (a few dozen colours for thousands of cells), unless cells share
      // a position, where the SVG's order decides which is seen.
      const byFill = new Map();
      p.cells.forEach((c, i) => {
        const key = overlap ? i : c[4];
        if (!byFill.has(key)) byFill.set(key, []);
        byFill.get(key).push(c);
      });
      for (const cells of byFill.values()) {
        g.fillStyle = p.fills[cells[0][4]];
        for (const c of cells) g.fillRect(p.x + c[1] * cw, p.y + c[0] * ch, cw, ch);
      }
      count += p.cells.length;
      if (d.labels) {
        g.fillStyle = '#000';
        g.font = `${d.font}px monospace`;
        g.textAlign = 'center';
        g.textBaseline = 'middle';
        for (const c of p.cells) g.fillText(c[2], p.x + (c[1] + 0.5) * cw, p.y + (c[0] + 0.5) * ch);
      }
      gridLines(g, p, cw, ch);
      notes(g, p, d, cw, ch);
      grids.push(grid);
    }
    canvas.dataset.cells = String(count);
    return (x, y) => {
      for (let k = 0; k < d.panels.length; k++) {
        const p = d.panels[k];
        const col = Math.floor((x - p.x) / cw), row = Math.floor((y - p.y) / ch);
        if (col < 0 || row < 0 || col >= p.cols || row >= p.rows) continue;
        const i = grids[k][row * p.cols + col];
        if (i >= 0) return { panel: k, index: i, cell: p.cells[i], x: p.x + col * cw, y: p.y + row * ch };
      }
      return null;
    };
  }

  // Thin lines between cells when cells are large, thick lines at mode boundaries (as the SVG).
  function gridLines(g, p, cw, ch) {
    const right = p.x + p.cols * cw, bottom = p.y + p.rows * ch;
    const line = (xa, ya, xb, yb, major) => {
      g.strokeStyle = major ? '#000' : '#888';
      g.lineWidth = major ? 1.6 : 0.3;
      g.beginPath();
      g.moveTo(xa, ya);
      g.lineTo(xb, yb);
      g.stroke();
    };
    const isMajor = (i, n, breaks) => i === 0 || i === n || breaks.some((b) => i % b === 0);
    for (let r = 0; r <= p.rows; r++) {
      const major = isMajor(r, p.rows, p.row_breaks);
      if (major || ch >= 10) line(p.x, p.y + r * ch, right, p.y + r * ch, major);
    }
    for (let c = 0; c <= p.cols; c++) {
      const major = isMajor(c, p.cols, p.col_breaks);
      if (major || cw >= 10) line(p.x + c * cw, p.y, p.x + c * cw, bottom, major);
    }
  }

  function notes(g, p, d, cw, ch) {
    const size = Math.max(d.font, 7);
    g.fillStyle = '#000';
    g.font = `${size}px monospace`;
    g.textAlign = 'left';
    g.textBaseline = 'middle';
    p.row_notes.forEach((n, r) => g.fillText(n, p.x + p.cols * cw + 4, p.y + (r + 0.5) * ch));
    g.textAlign = 'center';
    g.textBaseline = 'alphabetic';
    p.col_notes.forEach((n, c) => g.fillText(n, p.x + (c + 0.5) * cw, p.y + p.rows * ch + 14));
  }

  // Show `d` in `canvas`, with hover text in `tip` and the hovered cell outlined in `ring`.
  function show(canvas, tip, ring, d) {
    const at = paint(canvas, d);
    canvas.onmousemove = (e) => {
      const box = canvas.getBoundingClientRect();
      const hit = at(e.clientX - box.left, e.clientY - box.top);
      if (!hit) { tip.hidden = true; ring.hidden = true; return; }
      tip.textContent = hit.cell[3];
      tip.dataset.panel = String(hit.panel);
      tip.dataset.index = String(hit.index);
      tip.style.left = (e.clientX + 12) + 'px';
      tip.style.top = (e.clientY + 12) + 'px';
      tip.hidden = false;
      Object.assign(ring.style, { left: (canvas.offsetLeft + hit.x) + 'px', top: (canvas.offsetTop + hit.y) + 'px',
        width: d.cell_w + 'px', height: d.cell_h + 'px' });
      ring.hidden = false;
    };
    canvas.onmouseleave = () => { tip.hidden = true; ring.hidden = true; };
  }

  return { show };
})();
