// Case studies on the page: every case shows the article's claim, the model's figure and what
// it counts (the article's own scope) as `gpucost cases` prints them, and opening one loads its preset, whose result is the model's
// figure (here the breakdown's egress for seed 002's 10 TB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, metric, openCalculator, runId, waitForRun } from './harness.mjs';

test('case studies: claims and model figures as the CLI prints them; opening a case runs its preset', async () => {
  const entries = JSON.parse(cli('cases', '--format', 'json'));
  assert.ok(entries.length >= 20);
  const app = await openCalculator();
  try {
    const page = app.page;
    await page.locator('#case-studies > summary').click();
    for (const e of entries) {
      const claim = await page.locator(`[data-claim="${e.story}"]`).textContent();
      const model = await page.locator(`[data-model="${e.story}"]`).textContent();
      assert.equal(claim, e.claim, e.story);
      assert.equal(model, e.model, e.story);
      // What the figures count, as the CLI says it.
      assert.equal(await page.locator(`[data-case="${e.story}"] [data-scope]`).getAttribute('data-scope'), e.scope, e.story);
    }
    // DataStax's article books its toil apart: its figure is the cloud bill alone.
    assert.equal(entries.find((e) => e.story === 'datastax-inference').scope, 'cloud_bill');
    const egress = entries.find((e) => e.story === 'egress-10-tb');
    const before = await runId(page);
    await page.locator('[data-case="egress-10-tb"] button.open-case').click();
    await waitForRun(page, before, 120_000);
    assert.equal(await page.locator('#preset').inputValue(), egress.preset);
    const shown = await metric(page, 'breakdown_usd.egress');
    assert.equal(`$${shown['GKE Standard'].toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}/month`, egress.model);
    assert.equal(await page.locator('[data-case="egress-10-tb"] button.open-case').textContent(), 'Open now');
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
