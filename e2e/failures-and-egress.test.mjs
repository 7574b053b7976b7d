// Node failures and egress tiers on the page: the h100-capacity-wait preset shows the costs and
// node failures `gpucost eval` computes, and choosing AWS's egress tiers for a platform moves
// its egress cost to the CLI's figure for the same edit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, cliEval, metric, openPreset, runId, typeNumber, waitForRun } from './harness.mjs';

const close = (got, want) => Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want));

test('h100-capacity-wait: the page shows the CLI\'s costs and node failures', async () => {
  const report = cliEval('h100-capacity-wait');
  const app = await openPreset('h100-capacity-wait');
  try {
    const page = app.page;
    const tco = await metric(page, 'monthly_tco_usd.p50');
    const failures = await metric(page, 'node_failures.mean');
    const rework = await metric(page, 'breakdown_usd.hardware_failure_rework');
    for (const p of report.platforms) {
      assert.ok(close(tco[p.name], p.monthly_tco_usd.p50), `${p.name}: ${tco[p.name]} vs ${p.monthly_tco_usd.p50}`);
      assert.ok(p.node_failures.mean > 0, `${p.name} has failing nodes`);
      assert.ok(close(failures[p.name], p.node_failures.mean), `${p.name} failures`);
      assert.ok(close(rework[p.name], p.breakdown_usd.hardware_failure_rework), `${p.name} rework`);
    }
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('choosing AWS egress tiers for a platform gives the CLI\'s egress cost for that edit', async () => {
  // 100 GB out per job: about 35 TB a month, across AWS's first two tiers.
  const set = ['--set', 'job_classes.0.egress_gb_per_job=100'];
  const flat = JSON.parse(cli('eval', '--preset', 'batch-vs-eks-spot', ...set));
  const tiered = JSON.parse(cli('eval', '--preset', 'batch-vs-eks-spot', ...set, '--set', 'platforms.0.egress_tiers=aws_internet'));
  const app = await openPreset('batch-vs-eks-spot');
  try {
    const page = app.page;
    const name = flat.platforms[0].name;
    let before = await runId(page);
    await typeNumber(page, 'egress-gb-number', 100);
    await waitForRun(page, before, 60_000);
    let egress = await metric(page, 'breakdown_usd.egress');
    assert.ok(close(egress[name], flat.platforms[0].breakdown_usd.egress), `flat: ${egress[name]}`);
    before = await runId(page);
    await page.evaluate(() => document.querySelectorAll('details.all-settings').forEach((d) => { d.open = true; }));
    await page.locator('#platform-0-egress-tiers').selectOption('aws_internet');
    await waitForRun(page, before, 60_000);
    egress = await metric(page, 'breakdown_usd.egress');
    const want = tiered.platforms[0].breakdown_usd.egress;
    assert.ok(close(egress[name], want), `tiered: ${egress[name]} vs ${want}`);
    // Past 10 TB a month the tiers cost less than one flat price.
    assert.ok(want < flat.platforms[0].breakdown_usd.egress, `${want} < ${flat.platforms[0].breakdown_usd.egress}`);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
