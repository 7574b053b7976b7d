// Scaling efficiency as a curve on the page: the fsdp-64-gpu-scaling preset shows the costs and
// scaling loss `gpucost eval` computes, and choosing plain TCP for a platform moves its scaling
// loss to the CLI's figure for the same edit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, cliEval, metric, openPreset, runId, waitForRun } from './harness.mjs';

const close = (got, want) => Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want));

test('fsdp-64-gpu-scaling: the page shows the CLI\'s costs and scaling loss', async () => {
  const report = cliEval('fsdp-64-gpu-scaling');
  const app = await openPreset('fsdp-64-gpu-scaling');
  try {
    const page = app.page;
    const tco = await metric(page, 'monthly_tco_usd.p50');
    const loss = await metric(page, 'breakdown_usd.multi_node_scaling_loss');
    for (const p of report.platforms) {
      assert.ok(close(tco[p.name], p.monthly_tco_usd.p50), `${p.name}: ${tco[p.name]} vs ${p.monthly_tco_usd.p50}`);
      assert.ok(close(loss[p.name], p.breakdown_usd.multi_node_scaling_loss), `${p.name} scaling loss`);
    }
    // Scattered nodes lose more than nodes placed together, on the same EKS.
    const [, scattered, placed] = report.platforms;
    assert.ok(scattered.breakdown_usd.multi_node_scaling_loss > 2 * placed.breakdown_usd.multi_node_scaling_loss);
    const text = await page.locator('details.method').textContent();
    assert.ok(text.includes('fitted to seed 001'), 'the method panel states the fit');
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('choosing plain TCP for a platform gives the CLI\'s scaling loss for that edit', async () => {
  const tcp = JSON.parse(cli('eval', '--preset', 'fsdp-64-gpu-scaling', '--set', 'platforms.2.interconnect=tcp'));
  const app = await openPreset('fsdp-64-gpu-scaling');
  try {
    const page = app.page;
    const name = tcp.platforms[2].name;
    const before = await runId(page);
    await page.evaluate(() => document.querySelectorAll('details.all-settings').forEach((d) => { d.open = true; }));
    await page.locator('#platform-2-interconnect').selectOption('tcp');
    await waitForRun(page, before, 60_000);
    const loss = await metric(page, 'breakdown_usd.multi_node_scaling_loss');
    const want = tcp.platforms[2].breakdown_usd.multi_node_scaling_loss;
    assert.ok(close(loss[name], want), `${loss[name]} vs ${want}`);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
