// The same link gives identical numbers through the JS package (pkg/, built by `make pkg`),
// the command line and the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import init, { decodeLink, evaluate, engineVersion, fitHistory, presets } from '../pkg/gpucost.js';
import { metric, openCalculator } from './harness.mjs';

const BIN = process.env.GPUCOST ?? 'target/release/gpucost';

test('a link evaluates to the same numbers in pkg (Node), the CLI and the browser', async () => {
  await init({ module_or_path: readFileSync(new URL('../pkg/gpucost_bg.wasm', import.meta.url)) });
  const link = execFileSync(BIN, ['link', '--preset', 'six-small-jobs', '--set', 'seed=5',
    '--set', 'replications=40', '--set', 'platforms.0.warm_pool_window_s=900']).toString().trim();
  const cli = JSON.parse(execFileSync(BIN, ['eval', '--url', link]));
  const decoded = decodeLink(link);
  assert.deepEqual(decoded.notices, []);
  const fromPkg = evaluate(decoded.scenario);
  assert.equal(fromPkg.engine_version, engineVersion());
  // The whole report, scenario included, is the one the CLI prints.
  assert.deepEqual(fromPkg, cli);

  const app = await openCalculator({ hash: `#${link}` });
  try {
    const shown = await metric(app.page, 'monthly_tco_usd.p50');
    for (const p of cli.platforms) assert.equal(shown[p.name], p.monthly_tco_usd.p50, p.name);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('pkg lists the presets, refuses a bad scenario by its field, fits a job history', async () => {
  await init({ module_or_path: readFileSync(new URL('../pkg/gpucost_bg.wasm', import.meta.url)) });
  const names = execFileSync(BIN, ['presets']).toString().trim().split('\n').map((l) => l.split('\t')[0]);
  const list = presets();
  assert.deepEqual(list.map((p) => p.name), names);
  const first = list[0];
  assert.deepEqual(first.scenario, JSON.parse(execFileSync(BIN, ['scenario', '--preset', first.name])));
  assert.equal(first.version, 3); // version 2: the 2026-H2 AWS prices; 3: with its warm-up

  const broken = structuredClone(first.scenario);
  broken.platforms[0].gpus_per_node = 'eight';
  assert.throws(() => evaluate(broken), /platforms\[0\]\.gpus_per_node/);

  const csv = readFileSync(new URL('../tests/data/job-history-sample.csv', import.meta.url), 'utf8');
  const fitted = fitHistory(csv, decodeLink('').scenario);
  assert.deepEqual(fitted.bad_rows.map((b) => b.line), [11, 21, 31]);
  const cli = JSON.parse(execFileSync(BIN, ['history', 'tests/data/job-history-sample.csv'], { stdio: ['ignore', 'pipe', 'ignore'] }));
  assert.deepEqual(fitted.scenario, cli);
});
