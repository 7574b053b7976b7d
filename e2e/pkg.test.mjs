// The same link gives identical numbers through the JS package (pkg/, built by `make pkg`),
// the command line and the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import init, { decodeLink, evaluate, engineVersion } from '../pkg/gpucost.js';
import { metric, openCalculator } from './harness.mjs';

const BIN = process.env.GPUCOST ?? 'target/release/gpucost';

test('a link evaluates to the same numbers in pkg (Node), the CLI and the browser', async () => {
  await init({ module_or_path: readFileSync(new URL('../pkg/gpucost_bg.wasm', import.meta.url)) });
  const link = execFileSync(BIN, ['link', '--preset', 'six-small-jobs', '--set', 'seed=5',
    '--set', 'replications=40', '--set', 'platforms.0.warm_pool_window_s=900']).toString().trim();
  const cli = JSON.parse(execFileSync(BIN, ['eval', '--url', link]));
  const decoded = JSON.parse(decodeLink(link));
  assert.deepEqual(decoded.notices, []);
  const fromPkg = JSON.parse(evaluate(JSON.stringify(decoded.scenario)));
  assert.equal(fromPkg.engine_version, engineVersion());
  assert.deepEqual(fromPkg.platforms, cli.platforms);

  const app = await openCalculator({ hash: `#${link}` });
  try {
    const shown = await metric(app.page, 'monthly_tco_usd.p50');
    for (const p of cli.platforms) assert.equal(shown[p.name], p.monthly_tco_usd.p50, p.name);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
