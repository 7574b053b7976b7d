// Stories: a platform team with twenty small models opens the many-small-models preset and
// compares SageMaker endpoints, inference components and EKS sharing a GPU, with the page
// giving the numbers `gpucost eval` computes; a user who turns MIG on where it cannot be is
// told why, naming the platform or the GPU.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliEval, metric, openPreset } from './harness.mjs';

const PRESET = 'many-small-models';

/** Opens the "All settings" of the platform whose control has id `id`. */
async function showSetting(page, id) {
  const details = page.locator(`details.all-settings:has(#${id})`);
  if (!(await details.evaluate((d) => d.open))) await details.locator('> summary').click();
}

test(`${PRESET}: time-slicing packs twenty models on one GPU, as gpucost eval computes`, async () => {
  const app = await openPreset(PRESET);
  try {
    const { page } = app;
    const cli = cliEval(PRESET);
    const tco = await metric(page, 'monthly_tco_usd.p50');
    const busy = await metric(page, 'services.0.usd_per_million_requests.p50');
    const quiet = await metric(page, 'services.4.usd_per_million_requests.p50');
    const slo = await metric(page, 'services.0.slo_violation_minutes.mean');
    for (const p of cli.platforms) {
      assert.ok(Math.abs(tco[p.name] - p.monthly_tco_usd.p50) <= 1e-9 * tco[p.name], `${p.name}: TCO`);
      assert.ok(Math.abs(busy[p.name] - p.services[0].usd_per_million_requests.p50) <= 1e-9 * busy[p.name], `${p.name}: $/M`);
      assert.ok(Math.abs(quiet[p.name] - p.services[4].usd_per_million_requests.p50) <= 1e-9 * quiet[p.name], `${p.name}: $/M`);
      assert.equal(slo[p.name], p.services[0].slo_violation_minutes.mean, `${p.name}: SLO minutes`);
    }
    const [endpoints, components, sliced, mig] = cli.platforms.map((p) => p.name);
    // One time-sliced GPU is the cheapest; MIG on AWS pays a whole p4d of eight A100s, more
    // than twenty endpoints of their own.
    assert.ok(tco[sliced] < Math.min(tco[components], tco[endpoints], tco[mig]), JSON.stringify(tco));
    assert.ok(tco[mig] > tco[endpoints] && tco[endpoints] > tco[components], JSON.stringify(tco));
    // A 1g slice has a seventh of the A100: its requests miss the objective.
    assert.ok(slo[mig] > slo[sliced], JSON.stringify(slo));
    // The platforms show how they share: time-slicing, and MIG with seven small slices.
    await showSetting(page, 'platform-2-gpu-sharing');
    assert.equal(await page.locator('#platform-2-gpu-sharing').inputValue(), 'time_slicing');
    await showSetting(page, 'platform-3-gpu-sharing');
    assert.equal(await page.locator('#platform-3-gpu-sharing').inputValue(), 'mig');
    assert.equal(await page.locator('#platform-3-mig-layout').inputValue(), '7x1g');
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('MIG where it cannot be is refused, naming the platform or the GPU', async () => {
  const app = await openPreset('agent-traffic-spike');
  try {
    const { page } = app;
    const error = page.locator('.scenario-error');
    // SageMaker does not share GPUs.
    await showSetting(page, 'platform-0-gpu-sharing');
    await page.locator('#platform-0-gpu-sharing').selectOption('mig');
    await error.getByText('cannot share GPUs').waitFor();
    assert.match(await error.textContent(), /SageMaker endpoint/);
    await page.locator('#platform-0-gpu-sharing').selectOption('none');
    await page.waitForFunction(() => document.querySelector('.scenario-error').textContent === '');
    // EKS on g5.xlarge: an A10G has no MIG.
    await showSetting(page, 'platform-1-gpu-sharing');
    await page.locator('#platform-1-gpu-sharing').selectOption('mig');
    await error.getByText('A10G GPUs have no MIG').waitFor();
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
