// Drives the playground (web/dist, built by web/build.sh) in Debian's headless Chromium through
// playwright-core: the golden corpus computed in the page against the native `cotile calc` and
// the corpus, permalinks, an error with its position, drawings (element count, hover text), the
// FMHA preset's controls, timings, and no console errors.
//   node tests/web/playground_test.mjs COTILE GOLDEN_DIR
//   COTILE_PLAYGROUND_SCREENSHOT=FILE   also save a screenshot of the page
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readCorpus, nativeCalcJson, goldenMismatch } from './golden_cases.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const [cotile, goldenDir] = process.argv.slice(2);
const dist = path.join(root, 'web', 'dist');
const { chromium } = createRequire(path.join(root, 'web', 'package.json'))('playwright-core');

// Issue 26's speed targets are for a laptop; the test measures and prints the load, per-expression
// and drawing times against them but does not fail on a time (no timed assertions: CI's shared
// 2-core machine is several times slower and its load varies).
const TARGET = { loadMs: 1000, exprMs: 50, drawMs: 300 };
function report(what, ms, target) {
  console.log(`     ${what}: ${ms.toFixed(1)} ms (target on a laptop: under ${target} ms${ms < target ? '' : '; not met here'})`);
}
let checks = 0, failures = 0;
function check(name, cond, detail) {
  checks++;
  if (!cond) failures++;
  console.log((cond ? 'ok   ' : 'FAIL ') + name + (cond || detail === undefined ? '' : ': ' + detail));
}
function native(args) {
  const p = spawnSync(cotile, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { out: p.stdout, err: p.stderr, status: p.status };
}

// web/dist served as README says, by `python3 -m http.server` on a free loopback port.
const server = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '-d', dist],
  { stdio: ['ignore', 'pipe', 'ignore'] });  // stderr is its request log
const base = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (b) => {
    out += b;
    const m = /port (\d+)/.exec(out);
    if (m) resolve(`http://127.0.0.1:${m[1]}/`);
  });
  server.on('exit', (code) => reject(new Error(`python3 -m http.server exited (${code})`)));
});

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
const consoleErrors = [];
page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
page.on('pageerror', (e) => consoleErrors.push('uncaught: ' + e.message));
page.on('requestfailed', (r) => consoleErrors.push('request failed: ' + r.url()));

// Open a fragment as a fresh load (a link followed), and wait for the page to be interactive.
async function open(fragment) {
  await page.goto('about:blank');
  await page.goto(base + fragment);
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 60000 });
}
const text = (sel) => page.locator(sel).textContent();

try {
  // Load: interactive time, the script API.
  await open('');
  const loadMs = Number(await page.evaluate(() => document.body.dataset.interactiveMs));
  const engineMs = await page.evaluate(() => window.cotile.loadMs);
  check('window.cotile.ready is true once loaded', await page.evaluate(() => window.cotile.ready === true));
  report(`interactive after navigation start (engine ready in ${engineMs.toFixed(0)} ms)`, loadMs, TARGET.loadMs);
  const first = native(['explain']);
  check('the default page is the FMHA Q-load preset, as `cotile explain` prints it', (await text('#result')) === first.out);
  check('its derivation is shown as steps', (await page.locator('#steps li').count()) > 10);

  // The golden corpus, computed in the page as CuTe computes it (--as-cute) and in the default
  // (checked) mode, against the native command's --json output and the corpus's own text.
  const cases = readCorpus(goldenDir);
  const exprs = cases.map((c) => c.expr);
  for (const [mode, flags, opts] of [['as CuTe', ['--as-cute'], { asCute: true }], ['checked', [], {}]]) {
    const want = nativeCalcJson(cotile, exprs, flags);
    const got = await page.evaluate(([list, o]) => list.map((e) => {
      const t0 = performance.now();
      const r = window.cotile.calc(e, o);
      return [r, performance.now() - t0];
    }), [exprs, opts]);
    let sameAsNative = 0, sameAsGolden = 0;
    const diffs = [], goldenDiffs = [];
    const times = got.map(([, ms]) => ms).sort((a, b) => a - b);
    got.forEach(([r, ], i) => {
      const n = want[i];
      const same = JSON.stringify(r.json) === JSON.stringify(n) &&
        (r.ok ? n.result && r.value === n.result.value : n.error && r.error === n.error.message);
      if (same) sameAsNative++; else diffs.push(`${cases[i].where} ${exprs[i]}: page ${JSON.stringify(r)} native ${JSON.stringify(n)}`);
      if (mode === 'as CuTe') {
        const why = r.ok ? goldenMismatch(cases[i], r.value) : 'error: ' + r.error;
        if (why === '') sameAsGolden++; else goldenDiffs.push(`${cases[i].where} ${exprs[i]}: ${why}`);
      }
    });
    check(`golden ${mode}: ${sameAsNative}/${cases.length} cases print in the page exactly as \`cotile calc --json${flags.map((f) => ' ' + f).join('')}\``,
      sameAsNative === cases.length, diffs.slice(0, 5).join('\n'));
    if (mode === 'as CuTe')
      check(`golden as CuTe: ${sameAsGolden}/${cases.length} cases equal the corpus's result`, sameAsGolden === cases.length, goldenDiffs.slice(0, 5).join('\n'));
    const median = times[times.length >> 1], p99 = times[Math.floor(times.length * 0.99)], max = times[times.length - 1];
    const slowest = got.reduce((k, [, ms], i) => (ms > got[k][1] ? i : k), 0);
    console.log(`     per expression (${mode}): median ${median.toFixed(2)} ms, 99th percentile ${p99.toFixed(2)} ms, ` +
      `max ${max.toFixed(1)} ms (${cases[slowest].where} ${exprs[slowest].slice(0, 80)})`);
    report(`golden ${mode}: 99th percentile of the time per expression`, p99, TARGET.exprMs);
  }

  // Permalinks: #calc= shows what `cotile calc` prints; an error shows its message and position.
  const expr = 'logical_divide((_16,_32):(_32,_1), composition((_4,_2):(_2,_1), _8))';
  await open('#calc=' + encodeURIComponent(expr));
  check('#calc= permalink: #result is what `cotile calc` prints', (await text('#result')) + '\n' === native(['calc', expr]).out);
  check('#calc= permalink: the expression is in the box', (await page.inputValue('#expr')) === expr);
  const bad = 'composition((_4,_8):(_1,_4), (_2,_2]:(_1,_2))';
  await open('#calc=' + encodeURIComponent(bad));
  const nativeBad = native(['calc', bad]);
  check('an error permalink: #error is the message `cotile calc` prints', 'error: ' + (await text('#error')) + '\n' === nativeBad.err,
    `${await text('#error')} vs ${nativeBad.err}`);
  const col = Number(/at column (\d+)/.exec(nativeBad.err)[1]);
  check(`the error's position (column ${col}) is marked`, (await text('#error-mark mark')) === bad[col - 1] &&
    (await text('#error-mark')).startsWith(bad.slice(0, col - 1)), await text('#error-mark'));
  check('the error has no result', (await text('#result')) === '');
  const apiErr = await page.evaluate((e) => window.cotile.calc(e), bad);
  check('cotile.calc gives {ok: false, error} for it', apiErr.ok === false && 'error: ' + apiErr.error + '\n' === nativeBad.err);
  const apiOk = await page.evaluate((e) => window.cotile.calc(e), expr);
  check('cotile.calc gives {ok: true, value}', apiOk.ok === true && apiOk.value + '\n' === native(['calc', expr]).out);
  await open('#calc=' + encodeURIComponent('left_inverse((_4,_8):(8,_1))') + '&strict=1&json=1');
  const strict = native(['calc', '--strict', '--json', 'left_inverse((_4,_8):(8,_1))']);
  check('&strict=1&json=1: the --strict error and its --json fields', JSON.stringify(JSON.parse(await text('#json'))) === strict.out.trim() &&
    !(await page.locator('#json').isHidden()));

  const explainArgs = 'composition "(_4,_8):(_2,_16)" "(_2,_4):(_1,_4)"';
  await open('#explain=' + encodeURIComponent(explainArgs));
  const ex = native(['explain', 'composition', '(_4,_8):(_2,_16)', '(_2,_4):(_1,_4)']);
  check('#explain= permalink: #result is what `cotile explain` prints', (await text('#result')) === ex.out);
  const exJson = JSON.parse(native(['explain', '--json', 'composition', '(_4,_8):(_2,_16)', '(_2,_4):(_1,_4)']).out);
  check('#explain=: one step shown per step of the derivation', (await page.locator('#steps li').count()) === exJson.steps.length);
  await open('#verify=' + encodeURIComponent('injective "(_4,_8):(_1,_2)"'));
  check('#verify= permalink: the report `cotile verify` prints, FAIL with its counterexample',
    (await text('#result')) === native(['verify', 'injective', '(_4,_8):(_1,_2)']).out && (await page.locator('#checks .fail').count()) === 1);

  // The verbs through the script API, with the command's arguments as a list (an empty one too).
  const emptyArg = await page.evaluate(() => window.cotile.verify(['injective', '']));
  const emptyNative = native(['verify', 'injective', '']);
  check('cotile.verify([\'injective\', \'\']) fails as `cotile verify injective ""` does',
    emptyArg.ok === false && 'error: ' + emptyArg.error + '\n' === emptyNative.err, `${JSON.stringify(emptyArg)} vs ${emptyNative.err}`);

  // Typing: calc answers as one types, and the fragment follows (a link to what is shown).
  const typed = 'complement((_4,_8):(_1,_16), _256)';
  await open('#calc=' + encodeURIComponent('_1'));
  await page.fill('#expr', typed);
  const typedOut = native(['calc', typed]).out;
  await page.waitForFunction((want) => document.getElementById('result').textContent + '\n' === want, typedOut, { timeout: 10000 })
    .catch(() => {});
  check('typing an expression shows what `cotile calc` prints', (await text('#result')) + '\n' === typedOut);
  check('the fragment becomes its link', await page.evaluate(() => location.hash) === '#calc=' + encodeURIComponent(typed));
  await page.getByRole('button', { name: 'verify: a layout that is not injective' }).click();
  check('a preset button runs its command', (await text('#result')) === native(['verify', 'injective', '(_4,_8):(_1,_2)']).out);

  // The FMHA preset's controls: FP16, D = 64, M tile 64.
  await open('');
  await page.selectOption('#fmha-elem', 'half_t');
  await page.selectOption('#fmha-d', '64');
  await page.selectOption('#fmha-m', '64');
  check('FMHA controls (half_t, D=64, M=64): the chain `cotile explain` derives',
    (await text('#result')) === native(['explain', '--preset', 'fmha-gen-q', '--elem', 'half_t', '--head-dim', '64', '--m-tile', '64']).out);
  // ... and its copy, drawn and verified: the command's, with the derivation's layouts.
  const chain = JSON.parse(native(['explain', '--json', '--elem', 'half_t', '--head-dim', '64', '--m-tile', '64']).out);
  const stepValue = (name) => chain.steps.find((st) => st.name === name).value;
  const chainCopy = ['copy', '--atom', 'cp.async.16B', '--elem', 'half_t', '--atom-tv', stepValue('atom_q_tv'), '--data', stepValue('data_layout')];
  await page.click('#fmha-draw');
  await page.waitForSelector('#drawing[data-ready="1"]', { timeout: 60000 });
  const chainDraw = JSON.parse(native(['draw', ...chainCopy, '--json', '-o', '/dev/null']).out);
  check(`FMHA "draw its copy": the command's drawing of it (${chainDraw.cells} cells)`,
    (await text('#result')) === chainDraw.title && Number(await page.getAttribute('#drawing', 'data-cells')) === chainDraw.cells);
  await page.click('#fmha-verify');
  check('FMHA "verify its copy": the report `cotile verify` prints', (await text('#result')) === native(['verify', ...chainCopy]).out);

  // Drawings: the engine's cells on the page's canvas, their count and hover text against the SVG
  // `cotile draw` writes; the files offered for download are the command's. The Q-load chain's 128x128
  // copy (two panels of 16384 cells) is timed from the call to the painted frame.
  const specCopy = ['copy', '--atom', 'cp.async.16B', '--elem', 'float_e5m2_t', '--atom-tv', '((_2,_32),_16):((_16,_32),_1)',
    '--data', '((_128,_32),_1,_4):((_128,_1),_0,_32)'];
  const drawings = [
    ['the Q-load chain\'s 128x128 copy', specCopy, /^T\d+ V\d+ -> \(\d+,\d+\) coord \S+ offset \d+$/],
    ['a TV layout', ['tv', '((_2,(_4,_8)),_16):((_1,(_256,_2)),_16)', '--tile', '((_2,_8,_16),_1,_4)'], /^T\d+ V\d+ -> \(\d+,\d+\) offset \d+$/],
    ['a layout', ['layout', '((_2,_4),(_2,_8)):((_1,_4),(_2,_16))'], /^\(\d+,\d+\) coord .* -> offset \d+$/],
    ['a swizzle', ['swizzle', 'Sw<3,4,3> o _0 o (_8,_64):(_64,_1)'], /^\(\d+,\d+\) offset \d+ bank \d+$/],
  ];
  const unescape = (t) => t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  const tmp = fs.mkdtempSync('/tmp/cotile-playground-');
  for (const [name, args, tipForm] of drawings) {
    const quoted = args.map((a) => (/[\s(<]/.test(a) ? `"${a}"` : a)).join(' ');
    await open('#draw=' + encodeURIComponent(quoted));
    await page.waitForSelector('#drawing[data-ready="1"]', { timeout: 60000 });
    const ms = Number(await page.getAttribute('#drawing', 'data-ms'));
    const svgFile = path.join(tmp, 'd.svg'), htmlFile = path.join(tmp, 'd.html');
    const info = JSON.parse(native(['draw', ...args, '--json', '-o', svgFile]).out);
    native(['draw', ...args, '--html', '-o', htmlFile]);
    const svg = fs.readFileSync(svgFile, 'utf8');
    const tips = [...svg.matchAll(/<g class="cell" data-tip="([^"]*)"/g)].map((m) => unescape(m[1]));
    const docs = await page.evaluate((a) => window.cotile.draw(a, { documents: true }), quoted);
    check(`draw ${name}: the SVG and HTML offered are the files \`cotile draw\` writes`,
      docs.svg === svg && docs.html === fs.readFileSync(htmlFile, 'utf8'));
    const cells = Number(await page.getAttribute('#drawing', 'data-cells'));
    check(`draw ${name}: ${cells} cells drawn, as the command draws (${info.cells} cells, ${tips.length} in its SVG)`,
      cells === info.cells && tips.length === info.cells);
    // Hover cells of every panel: the tip shown is the SVG's tooltip for that cell.
    const d = await page.evaluate((a) => {
      const r = window.cotile.draw(a);
      return { cw: r.cell_w, ch: r.cell_h, panels: r.panels.map((p) => ({ x: p.x, y: p.y, cells: p.cells.map((c) => [c[0], c[1]]) })) };
    }, quoted);
    let first = 0, hovered = 0, matching = 0, sample = '';
    for (const [k, p] of d.panels.entries()) {
      for (const frac of [0, 0.37, 0.81]) {
        const i = Math.floor(p.cells.length * frac);
        const [row, col] = p.cells[i];
        // a position whose last (topmost) cell is cell i
        const last = p.cells.map((c, j) => (c[0] === row && c[1] === col ? j : -1)).reduce((m, j) => Math.max(m, j));
        const x = p.x + (col + 0.5) * d.cw, y = p.y + (row + 0.5) * d.ch;
        await page.evaluate(([cx, cy]) => {  // bring the cell into view (the drawing scrolls sideways)
          document.getElementById('drawing-box').scrollLeft = Math.max(0, cx - 300);
          const top = document.getElementById('drawing').getBoundingClientRect().top + window.scrollY;
          window.scrollTo(0, Math.max(0, top + cy - 300));
        }, [x, y]);
        const box = await page.locator('#drawing').boundingBox();
        await page.mouse.move(box.x + x, box.y + y);
        const tip = await page.locator('#tip').textContent();
        const visible = await page.locator('#tip').isVisible();
        hovered++;
        if (visible && tip === tips[first + last] && tipForm.test(tip)) matching++;
        else sample = `panel ${k} cell ${last}: shown '${tip}' (visible ${visible}), SVG '${tips[first + last]}'`;
        if (frac === 0.37) sample = sample || `e.g. '${tip}'`;
      }
      first += p.cells.length;
    }
    check(`draw ${name}: hovering ${hovered} cells shows each one's text (${sample})`, matching === hovered, sample);
    const [engineMs, paintMs] = await page.evaluate(() => ['engineMs', 'paintMs'].map((k) => Number(document.getElementById('drawing').dataset[k])));
    console.log(`     draw ${name}: ${cells} cells, call to painted frame ${ms.toFixed(0)} ms ` +
      `(engine and decoding ${engineMs.toFixed(0)} ms, canvas ${paintMs.toFixed(0)} ms)`);
    if (name.includes('128x128')) {
      report('the 128x128 copy, call to painted frame', ms, TARGET.drawMs);
    }
  }
  fs.rmSync(tmp, { recursive: true });

  if (process.env.COTILE_PLAYGROUND_SCREENSHOT) {
    await open('#draw=' + encodeURIComponent('copy --atom copy.u32 --elem half_t --thr "(_8,_16):(_16,_1)" --val "(_1,_2):(_0,_1)"'));
    await page.waitForSelector('#drawing[data-ready="1"]');
    const box = await page.locator('#drawing').boundingBox();
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.4);
    await page.screenshot({ path: process.env.COTILE_PLAYGROUND_SCREENSHOT });
  }
  check('no console errors', consoleErrors.length === 0, consoleErrors.join('\n'));
} finally {
  await browser.close();
  server.kill();
}
console.log(`${checks - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
