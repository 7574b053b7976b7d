// Each platform at its best: the page's "Tune each platform" runs in the long passes' worker
// after the main run, shows each platform's changes and the two verdicts as the CLI's
// `gpucost tune` gives them, and "Apply" makes the tuned scenario the current one: its link
// gives the CLI's numbers. A newer input stops a tune in progress.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, metric, openCalculator, runId, settledHash, typeNumber, waitForRun } from './harness.mjs';

const state = (page) => page.locator('.tune-panel').getAttribute('data-tune');

test('Tune → Apply gives the CLI\'s tuned numbers, and its link gives the CLI\'s numbers', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    await page.locator('[data-tune-start]').click();
    await page.waitForFunction(() => document.querySelector('.tune-panel')?.dataset.tune === 'done', null, { timeout: 120_000 });
    // The same report as the CLI's, platform by platform.
    const expected = JSON.parse(cli('tune', '--preset', 'batch-vs-eks-spot', '--format', 'json'));
    const shown = await page.locator('[data-tune-platform]').evaluateAll((els) => els.map((e) => ({
      name: e.dataset.tunePlatform, changes: Number(e.dataset.changes),
      asTyped: Number(e.dataset.asTyped), tuned: Number(e.dataset.tuned),
    })));
    assert.equal(shown.length, expected.platforms.length);
    for (const [i, p] of expected.platforms.entries()) {
      assert.equal(shown[i].name, p.name);
      assert.equal(shown[i].changes, Object.keys(p.changes).length, p.name);
      assert.equal(shown[i].asTyped, p.as_typed.mean, p.name);
      assert.equal(shown[i].tuned, p.tuned.mean, p.name);
    }
    assert.equal((await page.locator('[data-tune-fair]').textContent()).replace(/^Each platform at its best: /, ''), expected.fair_verdict);
    assert.equal((await page.locator('[data-tune-as-typed]').textContent()).replace(/^As typed: /, ''), expected.verdict_as_typed);
    assert.ok(expected.platforms.some((p) => Object.keys(p.changes).length > 0), 'the default preset has something to tune');

    // Apply: the tuned scenario runs, and its link evaluates to the same numbers in the CLI.
    const run = await runId(page);
    await page.locator('[data-tune-apply]').click();
    await waitForRun(page, run);
    assert.equal(await state(page), 'applied');
    const hash = await settledHash(page);
    const onPage = await metric(page, 'monthly_tco_usd.p50');
    const fromLink = JSON.parse(cli('eval', '--url', hash, '--no-flips'));
    for (const p of fromLink.platforms) assert.equal(onPage[p.name], p.monthly_tco_usd.p50, p.name);
    // And those are the tuned platforms' numbers: the CLI's tuned scenario, evaluated.
    const tuned = Object.fromEntries(expected.platforms.map((p) => [p.name, p.tuned.mean]));
    for (const p of fromLink.platforms) {
      assert.ok(Math.abs(p.usd_per_useful_gpu_hour.mean - tuned[p.name]) <= 1e-9 * tuned[p.name], `${p.name}: ${p.usd_per_useful_gpu_hour.mean} vs ${tuned[p.name]}`);
    }
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('a newer input stops a tune in progress, and the older tune never finishes', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    // More replications: the tune runs a few seconds, long enough to be stopped.
    let run = await runId(page);
    await page.locator('details.simulation-settings > summary').click();
    await typeNumber(page, 'simulation-replications', 1000);
    await waitForRun(page, run);
    await page.locator('[data-tune-start]').click();
    await page.waitForFunction(() => performance.getEntriesByType('mark').some((m) => m.name.startsWith('gpucost:tune-answer:1')), null, { timeout: 60_000 });
    assert.equal(await state(page), 'running');
    run = await runId(page);
    await typeNumber(page, 'simulation-replications', 999);
    await waitForRun(page, run);
    assert.equal(await state(page), 'stopped');
    assert.match(await page.locator('.tune-status').textContent(), /The scenario changed/);
    // A second after the stop, the older tune has not finished in the worker.
    await page.waitForTimeout(1000);
    const done = await page.evaluate(() => performance.getEntriesByType('mark').filter((m) => m.name.startsWith('gpucost:tune-done')).length);
    assert.equal(done, 0);
    // The stop button stops one too.
    await page.locator('[data-tune-start]').click();
    await page.waitForFunction(() => document.querySelector('.tune-panel')?.dataset.tune === 'running');
    await page.locator('[data-tune-stop]').click();
    assert.equal(await state(page), 'stopped');
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
