// The playground page: reads the expression box (or the URL fragment), asks window.cotile (the
// engine in WebAssembly) and shows its answer. State lives in the fragment:
//   #calc=<encodeURIComponent(expr)>[&strict=1][&as-cute=1][&json=1]   #explain=<args>   #verify=<args>   #draw=<args>
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const VERBS = ['calc', 'explain', 'verify', 'draw'];
  const PRESETS = window.COTILE_PRESETS;
  const state = { verb: 'calc' };
  const drawStats = { lastMs: null };

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  // The command's text: the answer itself for calc and draw; for explain and verify, folded
  // under the steps and checks shown from its --json.
  function resultAsText(verb) {
    const folded = verb === 'explain' || verb === 'verify';
    $('result-box').open = !folded;
    $('result-summary').hidden = !folded;
    $('result-summary').textContent = `the text cotile ${verb} prints`;
  }

  function clearOutput() {
    for (const id of ['result', 'json', 'error', 'error-mark', 'warnings', 'steps', 'tables', 'checks', 'drawing-info']) $(id).textContent = '';
    $('error-box').hidden = true;
    $('json').hidden = true;
    $('steps-title').hidden = true;
    $('drawing-box').hidden = true;
  }

  // An error: the engine's message as the command prints it, and the expression with the
  // column the parser points at marked.
  function showError(message, text, column) {
    $('error').textContent = message;
    const mark = $('error-mark');
    mark.textContent = '';
    if (column > 0 && text !== undefined) {
      const i = column - 1;
      mark.append(document.createTextNode(text.slice(0, i)));
      mark.append(el('mark', i < text.length ? text[i] : ' ', 'error-at'));
      mark.append(document.createTextNode(text.slice(i + 1)));
      mark.append(document.createTextNode(`\n${' '.repeat(i)}^ column ${column}`));
      const box = $('expr');
      if (box.value === text) box.setSelectionRange(i, Math.min(i + 1, text.length));
    }
    $('error-box').hidden = false;
  }

  function showJson(obj) {
    $('json').textContent = JSON.stringify(obj, null, 2);
    $('json').hidden = !$('opt-json').checked;
  }

  function runCalc(text) {
    const r = window.cotile.calc(text, { strict: $('opt-strict').checked, asCute: $('opt-as-cute').checked });
    if (r.ok) {
      $('result').textContent = r.value;
      for (const w of r.warnings) $('warnings').append(el('p', 'warning: ' + w, 'warning'));
    } else {
      showError(r.error, text, r.column);
    }
    showJson(r.json);
  }

  function showSteps(d) {
    $('steps-title').textContent = d.title;
    $('steps-title').hidden = false;
    for (const s of d.steps) {
      const li = el('li');
      const head = el('div', '', 'step-head');
      if (s.section) head.append(el('span', s.section + ' ', 'section'));
      head.append(el('span', s.name, 'name'), document.createTextNode(' = '), el('code', s.value, 'value'));
      li.append(head);
      if (s.function) li.append(el('div', s.function + (s.domain ? '    where ' + s.domain : ''), 'function'));
      if (s.why) li.append(el('div', s.why, 'why'));
      $('steps').append(li);
    }
    for (const t of d.tables) {
      const table = el('table');
      table.append(el('caption', t.title));
      const tr = el('tr');
      for (const h of t.header) tr.append(el('th', h));
      table.append(tr);
      for (const row of t.rows) {
        const r = el('tr');
        for (const c of row) r.append(el('td', c));
        table.append(r);
      }
      $('tables').append(table);
    }
    for (const n of d.notes) $('tables').append(el('p', n, 'note'));
  }

  function showChecks(report) {
    for (const c of report.checks) {
      const li = el('li', '', c.holds ? 'pass' : 'fail');
      li.append(el('b', c.holds ? 'PASS ' : 'FAIL '), document.createTextNode(`${c.check}: ${c.message}`));
      if (c.counterexample) li.append(el('div', 'counterexample: ' + c.counterexample, 'counterexample'));
      $('checks').append(li);
    }
  }

  // A drawing: the engine's panels painted on a canvas (drawing.js); the command's SVG and HTML
  // files are made on demand. The time from the call to the painted frame is kept in drawStats.
  function showDrawing(r, text, t0) {
    $('result').textContent = r.title;
    $('drawing-info').textContent = `${r.cells} cells, ${r.width}×${r.height} px; hover a cell for its thread, value, coordinate and offset`;
    $('drawing-box').hidden = false;
    const canvas = $('drawing');
    canvas.dataset.ready = '0';
    const computed = performance.now();
    window.CotileDrawing.show(canvas, $('tip'), $('ring'), r);
    const painted = performance.now();
    requestAnimationFrame(() => requestAnimationFrame(() => {
      drawStats.lastMs = performance.now() - t0;
      canvas.dataset.ms = String(drawStats.lastMs);
      canvas.dataset.engineMs = String(computed - t0);  // the engine's answer, decoded
      canvas.dataset.paintMs = String(painted - computed);  // the canvas filled
      canvas.dataset.ready = '1';
      $('timing').textContent += `, drawn in ${drawStats.lastMs.toFixed(0)} ms`;
    }));
    for (const [id, key, type] of [['save-svg', 'svg', 'image/svg+xml'], ['save-html', 'html', 'text/html']]) {
      const a = $(id);
      if (a.href.startsWith('blob:')) URL.revokeObjectURL(a.href);
      a.href = '#';
      a.onclick = (e) => {
        if (a.href.startsWith('blob:')) return;
        e.preventDefault();
        const doc = window.cotile.draw(text, { documents: true });
        if (!doc.ok) return;
        a.href = URL.createObjectURL(new Blob([doc[key]], { type }));
        a.click();
      };
    }
  }

  function runVerb(verb, text) {
    let r;
    try {
      r = window.cotile[verb](text);
    } catch (e) {
      r = { ok: false, error: String(e.message || e) };
    }
    if (!r.ok) {
      showError(r.error, text, 0);
      return;
    }
    if (verb === 'explain') {
      $('result').textContent = r.text;
      showSteps(r.json);
      showJson(r.json);
    } else if (verb === 'verify') {
      $('result').textContent = r.text;
      showChecks(r.json);
      showJson(r.json);
    } else {
      showJson({ subject: r.subject, title: r.title, cells: r.cells, width: r.width, height: r.height });
    }
    return r;
  }

  function fragment() {
    const text = $('expr').value;
    let f = state.verb + '=' + encodeURIComponent(text);
    if (state.verb === 'calc') {
      if ($('opt-strict').checked) f += '&strict=1';
      if ($('opt-as-cute').checked) f += '&as-cute=1';
    }
    if ($('opt-json').checked) f += '&json=1';
    return '#' + f;
  }

  // Run what the box holds; `push` records it in the fragment (replacing the current entry).
  function run(push) {
    if (!window.cotile.ready) return;
    clearOutput();
    const text = $('expr').value;
    resultAsText(state.verb);
    const t0 = performance.now();
    let drawn = null;
    if (state.verb === 'calc') runCalc(text);
    else if (state.verb === 'draw') drawn = runVerb('draw', text);
    else runVerb(state.verb, text);
    const ms = performance.now() - t0;
    $('timing').textContent = `${state.verb}: ${ms.toFixed(1)} ms`;
    $('timing').dataset.ms = String(ms);
    if (drawn && drawn.ok) showDrawing(drawn, text, t0);
    const link = fragment();
    $('permalink').href = link;
    if (push && location.hash !== link) history.replaceState(null, '', link);
  }

  function setVerb(verb) {
    state.verb = verb;
    for (const b of document.querySelectorAll('#verbs button')) b.setAttribute('aria-selected', String(b.dataset.verb === verb));
    $('prompt').textContent = 'cotile ' + verb;
    $('expr-label').textContent = verb === 'calc' ? 'expression (anything cotile calc accepts)' : `arguments of cotile ${verb}`;
    for (const id of ['opt-strict', 'opt-as-cute']) $(id).disabled = verb !== 'calc';
  }

  function load(verb, text, opts) {
    setVerb(verb);
    $('expr').value = text;
    if (opts) {
      $('opt-strict').checked = !!opts.strict;
      $('opt-as-cute').checked = !!opts.asCute;
    }
    run(true);
  }

  // The fragment's state, or null when it names no verb.
  function fromFragment() {
    const parts = location.hash.replace(/^#/, '').split('&');
    const found = { opts: {} };
    for (const p of parts) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const key = p.slice(0, eq), value = decodeURIComponent(p.slice(eq + 1));
      if (VERBS.includes(key)) { found.verb = key; found.text = value; }
      else if (key === 'strict') found.opts.strict = value === '1';
      else if (key === 'as-cute') found.opts.asCute = value === '1';
      else if (key === 'json') $('opt-json').checked = value === '1';
    }
    return found.verb ? found : null;
  }

  function fmhaArgs() {
    return [$('fmha-elem').value, $('fmha-d').value, $('fmha-m').value];
  }
  // The chain's copy, as the derivation states it: its atom TV layout and data layout (the atom
  // is cp.async.16B for every element type: include/cotile/atom/fmha_gen_q.hpp).
  function fmhaCopyArgs() {
    const [elem, d, m] = fmhaArgs();
    const r = window.cotile.explain(PRESETS.fmha.explain(elem, d, m));
    if (!r.ok) return null;
    const step = (name) => r.json.steps.find((s) => s.name === name);
    const tv = step('atom_q_tv'), data = step('data_layout');
    if (!tv || !data) return null;
    return `--atom cp.async.16B --elem ${elem} --atom-tv "${tv.value}" --data "${data.value}"`;
  }

  function fillPresets() {
    const f = PRESETS.fmha;
    for (const [v, label] of f.elems) $('fmha-elem').append(new Option(label, v));
    for (const d of f.headDims) $('fmha-d').append(new Option(String(d), String(d), d === 128, d === 128));
    for (const m of f.mTiles) $('fmha-m').append(new Option(String(m), String(m), m === 128, m === 128));
    const explainFmha = () => load('explain', f.explain(...fmhaArgs()));
    for (const id of ['fmha-elem', 'fmha-d', 'fmha-m']) $(id).addEventListener('change', explainFmha);
    $('fmha-explain').addEventListener('click', explainFmha);
    $('fmha-draw').addEventListener('click', () => { const a = fmhaCopyArgs(); if (a) load('draw', 'copy ' + a); });
    $('fmha-verify').addEventListener('click', () => { const a = fmhaCopyArgs(); if (a) load('verify', 'copy ' + a); });
    for (const p of PRESETS.list) {
      const b = el('button', p.title);
      b.type = 'button';
      b.title = `cotile ${p.verb} ${p.args}`;
      b.addEventListener('click', () => load(p.verb, p.args, { strict: !!p.strict, asCute: false }));
      const li = el('li');
      li.append(el('span', p.verb, 'tag'), b);
      $('preset-list').append(li);
    }
    for (const fn of window.cotile.functions()) {
      const li = el('li');
      const code = el('code', fn.signature);
      code.addEventListener('click', () => {  // start a call of it in the box
        setVerb('calc');
        const box = $('expr');
        box.value = fn.name + '(';
        box.focus();
        box.setSelectionRange(box.value.length, box.value.length);
      });
      li.append(code, document.createTextNode(' ' + fn.summary));
      $('functions').append(li);
    }
  }

  function wire() {
    for (const b of document.querySelectorAll('#verbs button')) b.addEventListener('click', () => { setVerb(b.dataset.verb); run(true); });
    $('run').addEventListener('click', () => run(true));
    $('expr').addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); run(true); }
    });
    let timer = null;
    $('expr').addEventListener('input', () => {
      if (state.verb !== 'calc') return;  // calc answers as one types; the other verbs on Enter
      clearTimeout(timer);
      timer = setTimeout(() => run(true), 120);
    });
    for (const id of ['opt-strict', 'opt-as-cute']) $(id).addEventListener('change', () => run(true));
    $('opt-json').addEventListener('change', () => { $('json').hidden = !$('opt-json').checked; $('permalink').href = fragment(); });
    window.addEventListener('hashchange', () => {
      if (location.hash === fragment()) return;
      const s = fromFragment();
      if (s) load(s.verb, s.text, s.opts);
    });
  }

  function start() {
    const loadMs = performance.now();
    $('status').textContent = `engine ready in ${window.cotile.loadMs.toFixed(0)} ms`;
    $('status').dataset.loadMs = String(window.cotile.loadMs);
    $('status').dataset.pageMs = String(loadMs);
    fillPresets();
    wire();
    const s = fromFragment();
    if (s) load(s.verb, s.text, s.opts);
    else load('explain', PRESETS.fmha.explain(...fmhaArgs()));
    document.body.dataset.ready = '1';
    document.body.dataset.interactiveMs = String(performance.now());  // since navigation start
  }

  setVerb('calc');
  window.cotile.whenReady.then(start).catch((e) => {
    $('status').textContent = 'the engine failed to load: ' + e;
  });
})();
