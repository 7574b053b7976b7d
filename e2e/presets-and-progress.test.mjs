// Stories: switching presets redraws every chart; a long run shows its progress and the page
// keeps answering input while it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metric, openCalculator, runId, typeNumber, waitForRun } from './harness.mjs';

async function fingerprints(page) {
  await page.waitForSelector('[data-metric="tornado.high"]', { timeout: 120_000 });
  const values = (selector) => page.locator(selector).evaluateAll((els) =>
    els.map((e) => `${e.dataset.platform}:${e.dataset.value}`).join('|'));
  return {
    cards: await values('[data-metric="monthly_tco_usd.p50"]'),
    breakdown: await values('[data-metric^="breakdown_usd."]'),
    histograms: await page.locator('.histograms rect').evaluateAll((els) =>
      els.map((e) => `${e.getAttribute('x')},${e.getAttribute('height')}`).join('|')),
    tornado: await values('[data-metric^="tornado."]'),
  };
}

test('switching presets changes every chart', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const before = await fingerprints(page);
    const run = await runId(page);
    await page.locator('#preset').selectOption('six-small-jobs');
    await waitForRun(page, run);
    // The tornado of the old preset is cleared as soon as the scenario changes.
    const after = await fingerprints(page);
    for (const chart of Object.keys(before)) {
      assert.ok(before[chart].length > 0, `${chart} drawn`);
      assert.notEqual(after[chart], before[chart], `${chart} changed`);
    }
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('a long run shows progress and the page answers input while it runs', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const run = await runId(page);
    // 120 short jobs a day over 30 days, 200 replications: seconds of simulation.
    await page.locator('#preset').selectOption('autopilot-vs-standard');
    await page.waitForFunction(() => document.querySelector('section.results').dataset.state === 'running');
    const progress = page.locator('.progress progress');
    const max = Number(await progress.getAttribute('max'));
    assert.equal(max, 200);
    // The new preset's cards appear with the first partial results.
    await page.locator('[data-metric="estimate.monthly_tco_usd"][data-platform="GKE Autopilot"]').waitFor();
    const started = Date.now();
    const estimateBefore = await metric(page, 'estimate.monthly_tco_usd');
    // An input while the simulation runs is handled at once: the instant estimate moves.
    await typeNumber(page, 'fte-cost-number', 320000);
    const estimateAfter = await metric(page, 'estimate.monthly_tco_usd');
    const handledMs = Date.now() - started;
    for (const name of Object.keys(estimateAfter)) {
      assert.ok(estimateAfter[name] > estimateBefore[name], `${name} estimate moved`);
    }
    assert.equal(await page.locator('section.results').getAttribute('data-state'), 'running');
    const value = Number(await progress.getAttribute('value'));
    assert.ok(value < max, `still running: ${value} of ${max}`);
    console.log(`input handled ${handledMs} ms into the run, at ${value} of ${max} replications`);
    await waitForRun(page, run + 1);
    assert.equal(Number(await progress.getAttribute('value')), max);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
