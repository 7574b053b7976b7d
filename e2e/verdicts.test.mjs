// Story: a skeptic reads the verdict of a case where people decide it. The page splits each
// platform's monthly TCO into the cloud bill and ops people as `gpucost eval` does, and its
// verdict is the CLI's sentence, which says that on the cloud bill alone the other platform
// has the lower median, and what each platform's ops people cost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliEval, metric, openPreset } from './harness.mjs';

const PRESET = 'case-datastax-inference';

test(`${PRESET}: the cards split the TCO into cloud bill and people, and the verdict says people decide it`, async () => {
  const report = cliEval(PRESET);
  const app = await openPreset(PRESET);
  try {
    const { page } = app;
    const bill = await metric(page, 'cloud_bill_usd.p50');
    const people = await metric(page, 'people_usd.p50');
    for (const p of report.platforms) {
      assert.equal(bill[p.name], p.cloud_bill_usd.p50, `${p.name}: cloud bill`);
      assert.equal(people[p.name], p.people_usd.p50, `${p.name}: people`);
    }
    // The CLI's sentence, to the letter (the tornado's sentence follows it once it is in).
    assert.match(report.verdict, /On the cloud bill alone, EKS \+ Karpenter has the lower median .*ops people decide it/);
    const shown = (await page.locator('.verdict').textContent()).trim();
    assert.ok(shown.startsWith(report.verdict), `page: ${shown}\ncli:  ${report.verdict}`);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
