// Stories: a user moves the FTE cost and the spot interruption rate, and the numbers move the
// way a hand calculation predicts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metric, openCalculator, runId, typeNumber, waitForRun } from './harness.mjs';

// Ops FTE shares of the default preset's platforms (profile defaults).
const OPS_SHARE = { 'AWS Batch on-demand': 0.25, 'EKS spot': 0.5, SageMaker: 0.1 };

test('raising FTE cost by $X raises each platform ops cost by X × its FTE share ÷ 12', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const before = await metric(page, 'breakdown_usd.ops_people');
    const run = await runId(page);
    await typeNumber(page, 'fte-cost-number', 260000); // +$60,000 a year
    await waitForRun(page, run);
    const after = await metric(page, 'breakdown_usd.ops_people');
    for (const [name, share] of Object.entries(OPS_SHARE)) {
      const want = before[name] + (60000 * share) / 12;
      assert.ok(Math.abs(after[name] - want) < 1e-6, `${name}: ${after[name]} vs ${want}`);
    }
    // The keyboard moves the slider too: one step (5,000) up from 260,000.
    const slider = page.locator('#fte-cost');
    await slider.focus();
    const run2 = await runId(page);
    await slider.press('ArrowRight');
    await waitForRun(page, run2);
    const stepped = await metric(page, 'breakdown_usd.ops_people');
    assert.ok(Math.abs(stepped.SageMaker - (after.SageMaker + (5000 * 0.1) / 12)) < 1e-6);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('raising the spot interruption rate raises the spot platform and leaves on-demand unchanged', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const before = await metric(page, 'monthly_tco_usd.p50');
    const run = await runId(page);
    await typeNumber(page, 'spot-rate-number', 0.05);
    await waitForRun(page, run);
    const after = await metric(page, 'monthly_tco_usd.p50');
    assert.ok(after['EKS spot'] > before['EKS spot'], `${after['EKS spot']} vs ${before['EKS spot']}`);
    // Common random numbers: the on-demand platforms see the same jobs and no interruptions.
    assert.equal(after['AWS Batch on-demand'], before['AWS Batch on-demand']);
    assert.equal(after.SageMaker, before.SageMaker);
    const readout = await page.locator('.control', { has: page.locator('#spot-rate-number') })
      .locator('.readout').textContent();
    assert.match(readout, /mean time between interruptions 20 h; 100\.0 % of always-on nodes/);
    await page.screenshot({ path: 'e2e/artifacts/spot-rate-raised.png', fullPage: true });
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('a value out of range is refused with a message naming the range', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const before = await metric(page, 'monthly_tco_usd.p50');
    await typeNumber(page, 'spot-rate-number', 7);
    await page.getByText('Spot interruption rate must be a number from 0 to 0.2; "7" was not applied.').waitFor();
    assert.deepEqual(await metric(page, 'monthly_tco_usd.p50'), before);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
