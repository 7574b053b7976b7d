// Stories: a platform gains a node pool and runs a job class on it, and only that platform's
// numbers move; three teams share a cluster, and each platform's bill by team adds up to its
// mean monthly cost, as gpucost eval computes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliEval, metric, openCalculator, openPreset, runId, waitForRun } from './harness.mjs';

test('adding a pool and moving a job class to it changes only that platform', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const before = await metric(page, 'monthly_tco_usd.p50');
    const batch = page.locator('fieldset.platform').first();
    await batch.locator('details.node-pools summary').click();
    const p5 = await page.locator('#platform-0-add-pool option').evaluateAll((os) =>
      os.find((o) => o.textContent.startsWith('p5.48xlarge') && o.textContent.includes('us-east-1')).value);
    let run = await runId(page);
    await page.locator('#platform-0-add-pool').selectOption(p5);
    await waitForRun(page, run);
    // A pool nothing runs on (the class stays on the cheaper p4d per useful GPU-hour) costs
    // nothing: no number moves.
    assert.deepEqual(await metric(page, 'monthly_tco_usd.p50'), before);
    run = await runId(page);
    await page.locator('#platform-0-runs-0').selectOption('p5.48xlarge');
    await waitForRun(page, run);
    const after = await metric(page, 'monthly_tco_usd.p50');
    const [first, ...others] = Object.keys(before);
    assert.notEqual(after[first], before[first], 'the platform with the new pool moved');
    for (const name of others) assert.equal(after[name], before[name], `${name} unchanged`);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('each platform\'s bill by team adds up to its mean monthly cost, as the CLI computes it', async () => {
  const app = await openPreset('multi-team-cluster');
  try {
    const { page } = app;
    const cli = cliEval('multi-team-cluster');
    const segments = await page.locator('.chart.teams [data-metric^="teams."]').evaluateAll((els) =>
      els.map((e) => ({ platform: e.dataset.platform, team: e.dataset.metric.split('.')[1], value: Number(e.dataset.value) })));
    assert.ok(segments.length >= 9, `${segments.length} segments`);
    for (const p of cli.platforms) {
      const mine = segments.filter((s) => s.platform === p.name);
      const sum = mine.reduce((a, s) => a + s.value, 0);
      assert.ok(Math.abs(sum - p.monthly_tco_usd.mean) <= 1e-6 * p.monthly_tco_usd.mean,
        `${p.name}: teams ${sum} vs TCO ${p.monthly_tco_usd.mean}`);
      for (const t of p.teams) {
        const shown = mine.find((s) => s.team === t.team);
        if (t.monthly_usd.mean > 0) assert.equal(shown?.value, t.monthly_usd.mean, `${p.name} / ${t.team}`);
      }
    }
    // The teams' editor is there, with the EKS quotas of the preset.
    const eks = page.locator('fieldset.platform').first();
    await eks.locator('details.teams summary').isVisible();
    assert.equal(await page.inputValue('#platform-0-team-research-nominal-gpus'), '16');
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
