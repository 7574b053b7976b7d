// The warm-up in "Simulation settings": the preset's is shown, an edit starts a new run and
// goes in the link, and the page's numbers are those `gpucost eval` gives for that link; the
// node timeline shows the measured window's first days, after the warm-up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, metric, openCalculator, runId, settledHash, typeNumber, waitForRun } from './harness.mjs';

test('a warm-up changes the run, goes in the link, and the page equals the CLI', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    // The preset has its warm-up (a day and a half), and the node timeline shows the
    // measured window's first days, after it; at 0 it shows the start of the run.
    const caption = page.locator('figure.chart.timeline figcaption');
    assert.equal(await caption.textContent(), "Nodes and jobs in the first two days of one run's measured window, after its warm-up");
    await page.locator('details.simulation-settings > summary').click();
    assert.equal(await page.locator('#simulation-warmup_days').inputValue(), '1.5');
    const cold = await runId(page);
    await typeNumber(page, 'simulation-warmup_days', 0);
    await waitForRun(page, cold);
    assert.doesNotMatch(await caption.textContent(), /warm-up/);
    const before = await metric(page, 'usd_per_useful_gpu_hour.p50');
    // Past the limit: refused, the numbers kept.
    await typeNumber(page, 'simulation-warmup_days', 91);
    const refused = page.locator('.simulation-settings .field', { has: page.locator('#simulation-warmup_days') }).locator('.input-error');
    assert.match(await refused.textContent(), /^Warm-up must be a number from 0 to 90; "91" was not applied\.$/);
    const run = await runId(page);
    await typeNumber(page, 'simulation-warmup_days', 3);
    await waitForRun(page, run);
    const after = await metric(page, 'usd_per_useful_gpu_hour.p50');
    assert.notDeepEqual(after, before);
    const hash = await settledHash(page);
    const report = JSON.parse(cli('eval', '--url', `#${hash}`));
    assert.equal(report.scenario.warmup_days, 3);
    for (const p of report.platforms) {
      assert.equal(after[p.name], p.usd_per_useful_gpu_hour.p50, p.name);
    }
    assert.match(await caption.textContent(), /measured window, after its warm-up$/);
  } finally {
    await app.close();
  }
});
