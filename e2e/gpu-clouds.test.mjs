// The GPU clouds: the h100-six-clouds preset shows the CLI's costs and verdict for AWS, Azure,
// Google, CoreWeave, Lambda and Nebius, and the method panel their rows' sources; the profile
// choice groups the profiles by cloud; a Lambda platform offers no spot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliEval, metric, openCalculator, openPreset, runId, waitForRun } from './harness.mjs';

const close = (got, want) => Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want));

test('h100-six-clouds: the CLI\'s cost per platform and its verdict, with the GPU clouds\' sources', async () => {
  const report = cliEval('h100-six-clouds');
  assert.equal(report.platforms.length, 6);
  const app = await openPreset('h100-six-clouds');
  try {
    const page = app.page;
    const tco = await metric(page, 'monthly_tco_usd.p50');
    for (const p of report.platforms) {
      assert.ok(close(tco[p.name], p.monthly_tco_usd.p50), `${p.name}: ${tco[p.name]} vs ${p.monthly_tco_usd.p50}`);
    }
    const verdict = (await page.locator('.verdict').textContent()).trim();
    assert.ok(verdict.startsWith(report.verdict), `page: ${verdict}\ncli:  ${report.verdict}`);
    const method = await page.locator('details.method').textContent();
    for (const words of ['gd-8xh100ib-i128', 'coreweave-pricing-tracker', 'gpu_8x_h100_sxm5',
      'catalogs/v9/lambda/vms.csv', 'gpu-h100-sxm_8gpu-128vcpu-1600gb', 'effective 2026-10-01']) {
      assert.ok(method.includes(words), `the method panel names ${words}`);
    }
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('the profiles are grouped by cloud, and a Lambda platform offers no spot', async () => {
  const app = await openCalculator();
  try {
    const page = app.page;
    const groups = await page.locator('#add-platform-profile optgroup').evaluateAll((gs) =>
      gs.map((g) => [g.label, [...g.querySelectorAll('option')].map((o) => o.value)]));
    assert.deepEqual(groups.map(([label]) => label), ['AWS', 'GCP', 'Azure', 'CoreWeave', 'Lambda', 'Nebius', 'Any cloud']);
    assert.deepEqual(Object.fromEntries(groups).Lambda, ['lambda_on_demand', 'lambda_1cc']);
    const run = await runId(page);
    await page.locator('#add-platform-profile').selectOption('lambda_on_demand');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await waitForRun(page, run);
    const spot = page.locator('#platform-3-purchase option[value="spot"]');
    assert.equal(await spot.isDisabled(), true);
    assert.match(await spot.textContent(), /Lambda sells none/);
    // CoreWeave sells spot.
    const again = await runId(page);
    await page.locator('#add-platform-profile').selectOption('coreweave_cks');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await waitForRun(page, again);
    assert.equal(await page.locator('#platform-4-purchase option[value="spot"]').isDisabled(), false);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
