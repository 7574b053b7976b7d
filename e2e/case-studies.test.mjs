// Case studies on the page: every case `gpucost cases` lists is there, showing the article's
// claim, the model's figure (and the one beside it on the other scope), what it counts, the
// reading and why, as the CLI prints them; opening one loads its preset, whose result is the
// model's figure (here the breakdown's egress for seed 002's 10 TB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, metric, openCalculator, runId, waitForRun } from './harness.mjs';

test('case studies: claims and model figures as the CLI prints them; opening a case runs its preset', async () => {
  const entries = JSON.parse(cli('cases', '--format', 'json'));
  assert.ok(entries.length >= 24);
  // Each entry carries its inputs, what it adds and its scope, not only texts.
  for (const e of entries) {
    assert.ok(e.inputs.length > 0 && Array.isArray(e.assumed), e.story);
    assert.ok(['with_people', 'cloud_bill', 'gpu_time', 'not_a_cost'].includes(e.claim.scope), e.story);
    assert.ok(typeof e.model.value === 'number' && e.model.metric.kind, e.story);
  }
  const app = await openCalculator();
  try {
    const page = app.page;
    await page.locator('#case-studies > summary').click();
    // Every entry, and no other.
    assert.deepEqual(await page.locator('article.case').evaluateAll((els) => els.map((el) => el.dataset.case)), entries.map((e) => e.story));
    for (const e of entries) {
      const claim = await page.locator(`[data-claim="${e.story}"]`).textContent();
      const model = await page.locator(`[data-model="${e.story}"]`).textContent();
      assert.equal(claim, `${e.claim.what}: ${e.claim_text}`, e.story);
      assert.equal(model, e.model_text, e.story);
      if (e.beside_text) {
        assert.ok((await page.locator(`[data-beside="${e.story}"]`).textContent()).startsWith(e.beside_text), e.story);
      } else {
        assert.equal(await page.locator(`[data-beside="${e.story}"]`).count(), 0, e.story);
      }
      // What the figures count, the reading and why, as the CLI says them.
      const entry = page.locator(`[data-case="${e.story}"]`);
      assert.equal(await entry.locator('[data-scope]').getAttribute('data-scope'), e.claim.scope, e.story);
      assert.equal(await entry.locator('[data-reading]').getAttribute('data-reading'), e.reading, e.story);
      assert.equal(await page.locator(`[data-why="${e.story}"]`).textContent(), e.why_text, e.story);
    }
    // DataStax's article books its toil apart: its figure is the cloud bill alone, the
    // with-people figure beside it.
    const datastax = entries.find((e) => e.story === 'datastax-inference');
    assert.equal(datastax.claim.scope, 'cloud_bill');
    assert.equal(datastax.beside.metric.field, 'monthly_tco_usd');
    // Money with cents.
    assert.equal(entries.find((e) => e.story === 'autopilot-a100').claim_text, '$3.80/GPU-hour');
    const egress = entries.find((e) => e.story === 'egress-10-tb');
    const before = await runId(page);
    await page.locator('[data-case="egress-10-tb"] button.open-case').click();
    await waitForRun(page, before, 120_000);
    assert.equal(await page.locator('#preset').inputValue(), egress.preset);
    const shown = await metric(page, 'breakdown_usd.egress');
    assert.equal(`$${shown['GKE Standard'].toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}/month`, egress.model_text);
    assert.equal(await page.locator('[data-case="egress-10-tb"] button.open-case').textContent(), 'Open now');
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
