// Spot reclaim waves on the page: the spot-reclaim-waves preset shows the costs, interruptions
// and capacity wait `gpucost eval` computes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliEval, metric, openPreset } from './harness.mjs';

const close = (got, want) => Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want));

test('spot-reclaim-waves: the page shows the CLI\'s costs, interruptions and capacity wait', async () => {
  const report = cliEval('spot-reclaim-waves');
  const app = await openPreset('spot-reclaim-waves');
  try {
    const page = app.page;
    const tco = await metric(page, 'monthly_tco_usd.p50');
    const interruptions = await metric(page, 'interruptions.mean');
    const rework = await metric(page, 'breakdown_usd.interruption_rework');
    for (const p of report.platforms) {
      assert.ok(close(tco[p.name], p.monthly_tco_usd.p50), `${p.name}: ${tco[p.name]} vs ${p.monthly_tco_usd.p50}`);
      assert.ok(close(interruptions[p.name], p.interruptions.mean), `${p.name} interruptions`);
      assert.ok(close(rework[p.name], p.breakdown_usd.interruption_rework), `${p.name} rework`);
    }
    // Waves spread a month's interruptions: a wider p5–p95 than node by node.
    const [alone, waves] = report.platforms;
    assert.ok(waves.interruptions.p95 - waves.interruptions.p5 > alone.interruptions.p95 - alone.interruptions.p5);
    // The pool's settings show the waves.
    await page.evaluate(() => document.querySelectorAll('details.all-settings').forEach((d) => { d.open = true; }));
    assert.equal(await page.locator('#platform-2-reclaim-fallback').isChecked(), true);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
