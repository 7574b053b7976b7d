// Regions on the page: the data-gravity-egress preset shows the data transfer `gpucost eval`
// computes, and moving a platform beside the bucket, or reading through a NAT gateway, moves
// its transfer cost as the hand calculation predicts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, cliEval, metric, openPreset, runId, waitForRun } from './harness.mjs';

const close = (got, want) => Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want));

test('data-gravity-egress: the page shows the CLI\'s data transfer, and the region selector moves it', async () => {
  const report = cliEval('data-gravity-egress');
  const beside = JSON.parse(cli('eval', '--preset', 'data-gravity-egress', '--set', 'platforms.1.region=us-east-1'));
  const app = await openPreset('data-gravity-egress');
  try {
    const page = app.page;
    const transfer = await metric(page, 'breakdown_usd.data_transfer');
    for (const p of report.platforms) {
      // A category worth nothing draws no segment.
      assert.ok(close(transfer[p.name] ?? 0, p.breakdown_usd.data_transfer), `${p.name}: ${transfer[p.name]}`);
    }
    const [, nat] = report.platforms;
    // us-west-2 reading us-east-1 through NAT pays $0.02 + $0.045 per GB; moved beside the
    // bucket it pays the NAT's $0.045 alone: 0.045 / 0.065 of the month's transfer, the same
    // reads (the jobs are the same in every run).
    const want = nat.breakdown_usd.data_transfer * (0.045 / 0.065);
    assert.ok(Math.abs(beside.platforms[1].breakdown_usd.data_transfer - want) < 1e-6 * want, `${beside.platforms[1].breakdown_usd.data_transfer} vs ${want}`);
    const before = await runId(page);
    await page.evaluate(() => document.querySelectorAll('details.all-settings').forEach((d) => { d.open = true; }));
    await page.locator('#platform-1-region').selectOption('us-east-1');
    await waitForRun(page, before, 60_000);
    const moved = await metric(page, 'breakdown_usd.data_transfer');
    assert.ok(close(moved[nat.name], beside.platforms[1].breakdown_usd.data_transfer), `${moved[nat.name]}`);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
