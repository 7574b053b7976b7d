// Story: a team weighing Inferentia2 for its agent API moves the EKS platform onto an
// inf2.xlarge; the page prices the service there and says that the chip's throughput factor
// is an assumption to set for their model family.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metric, openCalculator, runId, waitForRun } from './harness.mjs';

test('an Inferentia2 platform is priced, its throughput flagged as an assumption', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    let before = await runId(page);
    await page.locator('#preset').selectOption('agent-traffic-spike');
    await waitForRun(page, before, 300_000);
    const fieldset = page.locator('fieldset.platform').nth(1);
    assert.equal(await fieldset.locator('.notice').count(), 0);
    const select = fieldset.locator('select[id$="-instance"]');
    const value = await select.locator('option').evaluateAll((options) =>
      options.find((o) => o.textContent.startsWith('inf2.xlarge') && o.textContent.includes('us-east-1')).value);
    before = await runId(page);
    await select.selectOption(value);
    await waitForRun(page, before, 300_000);
    const hint = await fieldset.locator('.notice').textContent();
    assert.match(hint, /^Inferentia2: its throughput, 0\.61 × the reference GPU, is an assumption for transformer inference/);
    const perMillion = await metric(page, 'services.0.usd_per_million_requests.p50');
    assert.ok(perMillion['EKS + Karpenter'] > 0, JSON.stringify(perMillion));
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
