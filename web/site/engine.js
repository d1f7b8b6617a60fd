// window.cotile: the engine compiled to WebAssembly (cotile.js + cotile.wasm, built from
// tools/cotile by web/build.sh). Every answer is the command's own: calc returns the text
// `cotile calc` prints; explain/verify/draw take the command's arguments. Nothing is computed here.
(function () {
  'use strict';
  const t0 = performance.now();
  let mod = null;
  let resolveReady, rejectReady;
  const api = {
    ready: false,
    loadMs: null,  // milliseconds from this script's start until the module answered
    whenReady: new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; }),
  };
  window.cotile = api;

  function need() {
    if (!mod) throw new Error('cotile: the module has not loaded yet (wait for cotile.whenReady)');
  }
  function answer(ptr) {
    return JSON.parse(mod.UTF8ToString(ptr));
  }

  // calc(expr, {strict, asCute}) -> {ok: true, value, json, warnings} | {ok: false, error, column, json}.
  // value: what `cotile calc EXPR` prints (without the final newline); error: what it prints after
  // "error: "; column: the 1-based column a parse error points at (0 when the error has none).
  api.calc = function (expr, opts) {
    need();
    const o = opts || {};
    const mode = (o.strict ? 1 : 0) | (o.asCute ? 2 : 0);
    const r = answer(mod.ccall('cotile_calc', 'number', ['string', 'number'], [String(expr), mode]));
    if (r.ok) return { ok: true, value: r.value, json: r.json, warnings: r.warnings };
    return { ok: false, error: r.error, column: r.column, json: r.json };
  };

  // The operations `cotile calc --list` lists: [{name, signature, summary}].
  api.functions = function () {
    need();
    return answer(mod.ccall('cotile_functions', 'number', [], []));
  };

  function verb(name, args) {
    need();
    const list = typeof args === 'string' ? api.splitArgs(args) : args.map(String);
    for (const a of list) {
      if (a.includes('\n')) return { ok: false, error: name + ': an argument holds a line break' };
    }
    return answer(mod.ccall('cotile_verb', 'number', ['string', 'string'], [name, list.map((a) => a + '\n').join('')]));
  }
  // The verbs, with the command's arguments as a list or as one command line:
  // explain -> {ok, text, json}; verify -> {ok, holds, text, json};
  // draw -> {ok, subject, title, cells, width, height, panels (each with its cells
  // [row, col, label, tip, f] coloured fills[f]) and the SVG's geometry}; or {ok: false, error}.
  api.explain = (args) => verb('explain', args);
  api.verify = (args) => verb('verify', args);
  // draw(args, {documents: true}) -> {ok, ..., svg, html}: the files `cotile draw` and
  // `cotile draw --html` write, in place of the panels.
  api.draw = (args, opts) => verb(opts && opts.documents ? 'draw-documents' : 'draw', args);

  // A command line split as a POSIX shell splits words: blanks separate, quotes group.
  api.splitArgs = function (line) {
    const out = [];
    let cur = '', inWord = false, quote = null;
    for (const ch of String(line)) {
      if (quote) {
        if (ch === quote) quote = null; else cur += ch;
      } else if (ch === '"' || ch === "'") {
        quote = ch; inWord = true;
      } else if (/\s/.test(ch)) {
        if (inWord) { out.push(cur); cur = ''; inWord = false; }
      } else {
        cur += ch; inWord = true;
      }
    }
    if (quote) throw new Error('unterminated ' + quote + ' quote');
    if (inWord) out.push(cur);
    return out;
  };

  createCotile().then((m) => {
    mod = m;
    api.loadMs = performance.now() - t0;
    api.ready = true;
    resolveReady(api);
    window.dispatchEvent(new Event('cotile-ready'));
  }, (e) => rejectReady(e));
})();
