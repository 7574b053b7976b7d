// Stories: a user adds and removes platforms and job classes, overrides a platform default,
// and gets a clear message when the scenario cannot run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, metric, openCalculator, runId, typeNumber, waitForRun } from './harness.mjs';

test('adding and removing a platform adds and removes its card', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    let run = await runId(page);
    await page.locator('#add-platform-profile').selectOption('gke_autopilot');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await waitForRun(page, run);
    let names = Object.keys(await metric(page, 'monthly_tco_usd.p50'));
    assert.deepEqual(names, ['AWS Batch on-demand', 'EKS spot', 'SageMaker', 'GKE Autopilot']);
    assert.equal(await page.getByRole('button', { name: 'Add', exact: true }).isDisabled(), false);
    for (const profile of ['aks', 'azure_ml']) {
      run = await runId(page);
      await page.locator('#add-platform-profile').selectOption(profile);
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await waitForRun(page, run);
    }
    names = Object.keys(await metric(page, 'monthly_tco_usd.p50'));
    assert.deepEqual(names.slice(4), ['AKS (Kueue)', 'Azure Machine Learning']);
    // Six is the limit.
    assert.equal(await page.getByRole('button', { name: 'Add', exact: true }).isDisabled(), true);
    run = await runId(page);
    await page.locator('fieldset.platform').nth(3).getByRole('button', { name: 'Remove platform' }).click();
    await waitForRun(page, run);
    assert.equal(Object.keys(await metric(page, 'monthly_tco_usd.p50')).length, 5);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('overriding a default changes that platform only; reset restores it', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const before = await metric(page, 'breakdown_usd.fees');
    let run = await runId(page);
    // EKS's control-plane fee: $0.10/cluster-hour → $0.60 (extended support): +$365/month.
    await page.locator('fieldset.platform').nth(1).locator('details.all-settings summary').click();
    await typeNumber(page, 'platform-1-setting-0', 0.6);
    await waitForRun(page, run);
    const after = await metric(page, 'breakdown_usd.fees');
    assert.ok(Math.abs(after['EKS spot'] - 0.6 * 730) < 1e-9, `${after['EKS spot']}`);
    assert.equal(after['AWS Batch on-demand'], before['AWS Batch on-demand']);
    run = await runId(page);
    await page.locator('fieldset.platform').nth(1).getByRole('button', { name: 'Reset to defaults' }).click();
    await waitForRun(page, run);
    assert.ok(Math.abs((await metric(page, 'breakdown_usd.fees'))['EKS spot'] - 73) < 1e-9);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('a job class that fits no GPU is explained, naming the field, and the page stays usable', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    await page.locator('fieldset.job-class').first().locator('details.all-settings summary').click();
    await typeNumber(page, 'class-0-setting-4', 80); // 80 GB per GPU on 40 GB A100s
    await page.getByText('This scenario cannot run: job_classes.0.gpu_memory_gb: job class "Training" needs 80 GB per GPU but platform "AWS Batch on-demand" has 40 GB GPUs').waitFor();
    const run = await runId(page);
    await typeNumber(page, 'class-0-setting-4', 30);
    await waitForRun(page, run);
    assert.equal(await page.locator('.scenario-error').textContent(), '');
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('the break-evens appear after the tornado, in the units of their inputs', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    await page.waitForSelector('[data-metric="break_even.utilization"]', { timeout: 120_000 });
    // Reserving at 37 % off pays only above 63 % busy, a little later with Poisson bursts.
    const u = Number(await page.locator('[data-metric="break_even.utilization"]').getAttribute('data-value'));
    assert.ok(u > 0.6 && u < 0.8, `${u}`);
    const spot = await page.locator('[data-metric="break_even.spot_interruptions_per_node_hour"]').textContent();
    assert.match(spot, /^EKS spot: /);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('where in the run a job fails: failing at the start burns almost nothing, and the link carries it', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    let run = await runId(page);
    await page.locator('#preset').selectOption('dependency-failures');
    await waitForRun(page, run);
    const anywhere = await metric(page, 'monthly_tco_usd.p50');
    run = await runId(page);
    await page.locator('#class-0-failure-point').selectOption('0');
    await waitForRun(page, run);
    const atStart = await metric(page, 'monthly_tco_usd.p50');
    // Broken jobs now fail a second into each attempt instead of somewhere in it: cheaper.
    for (const name of Object.keys(anywhere)) {
      assert.ok(atStart[name] < anywhere[name], `${name}: ${atStart[name]} < ${anywhere[name]}`);
    }
    // The CLI, given the same edit, computes the same numbers; so does the page's link.
    const expected = JSON.parse(cli('eval', '--preset', 'dependency-failures', '--set', 'job_classes.0.failures.at_share=0'));
    for (const p of expected.platforms) assert.equal(atStart[p.name], p.monthly_tco_usd.p50, p.name);
    await page.waitForTimeout(600);
    const hash = await page.evaluate(() => location.hash.slice(1));
    const fromLink = JSON.parse(cli('eval', '--url', hash));
    for (const p of fromLink.platforms) assert.equal(atStart[p.name], p.monthly_tco_usd.p50, p.name);
    assert.equal(await page.locator('#class-0-failure-point').inputValue(), '0');
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
