// The golden corpus as `cotile calc` expressions, and what the native command prints for them.
// Format: ../shared/golden/README.md (op TAB args... TAB => TAB results); a case is run as the
// expression op(arg1, arg2, ...), which `cotile calc` evaluates by the same operation as
// `cotile golden` (tools/cotile/golden.cpp).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

export function readCorpus(dir) {
  const cases = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.txt')).sort()) {
    const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (line === '' || line.startsWith('#')) return;
      const f = line.split('\t');
      const arrow = f.indexOf('=>');
      if (arrow < 1) throw new Error(`${file}:${i + 1}: no '=>'`);
      cases.push({
        where: `${file}:${i + 1}`, op: f[0], args: f.slice(1, arrow), expected: f.slice(arrow + 1),
        expr: `${f[0]}(${f.slice(1, arrow).join(', ')})`,
      });
    });
  }
  return cases;
}

// `cotile calc --json [flags] EXPR...` for every expression (in batches): one parsed object each.
export function nativeCalcJson(cotile, exprs, flags) {
  const out = [];
  for (let i = 0; i < exprs.length; i += 400) {
    const batch = exprs.slice(i, i + 400);
    const p = spawnSync(cotile, ['calc', '--json', ...flags, ...batch], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const lines = p.stdout.split('\n').filter((l) => l !== '');
    if (lines.length !== batch.length) throw new Error(`cotile calc: ${lines.length} answers for ${batch.length} expressions\n${p.stderr}`);
    for (const l of lines) out.push(JSON.parse(l));
  }
  return out;
}

// Whether the printed result `text` is the case's expected result. Several results print as TAB-
// separated name=value fields, as the corpus writes them. Two rules of the golden runner apply:
// a single `layout=` field is compared with a plain layout result, and tile_to_shape's offsets
// (taken at unprinted indices) are not compared here. Returns '' when it matches.
export function goldenMismatch(c, text) {
  let expected = c.expected;
  let got = text.split('\t');
  if (c.op === 'tile_to_shape') {
    expected = expected.filter((e) => !e.startsWith('offsets='));
    got = got.filter((e) => !e.startsWith('offsets='));
  }
  if (expected.length === 1 && expected[0].startsWith('layout=') && got.length === 1 && !got[0].includes('=')) got = ['layout=' + got[0]];
  return expected.join('\t') === got.join('\t') ? '' : `expected ${expected.join(' ')}, got ${got.join(' ')}`;
}
