// The payback view: with a one-off cost on a cheaper platform, the page's break-even month is
// the CLI's, and it is the one-off cost over the monthly saving (the hand formula), for two
// values of engineer-months.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, openCalculator, metric } from './harness.mjs';

const edits = (months) => [
  '--preset', 'batch-vs-eks-spot',
  '--set', `platforms.1.one_off.engineer_months=${months}`,
  '--set', 'payback.current=AWS Batch on-demand',
];

for (const months of [6, 12]) {
  test(`${months} engineer-months pay back at one-off ÷ monthly saving`, async () => {
    const report = JSON.parse(cli('eval', ...edits(months)));
    const [batch, eks] = report.platforms.map((p) => p.monthly_tco_usd.mean);
    const oneOff = months * report.scenario.people.fte_cost_usd_per_year / 12;
    const hand = oneOff / (batch - eks);
    const fromCli = report.payback.platforms[1].breakeven_month;
    assert.ok(Math.abs(fromCli - hand) < 1e-9 * hand, `${fromCli} vs ${hand}`);
    const hash = cli('link', ...edits(months)).trim();
    const app = await openCalculator({ hash });
    try {
      const page = app.page;
      assert.equal(await page.locator('details.payback').getAttribute('open'), '');
      const onPage = await metric(page, 'payback.breakeven_month');
      assert.ok(Math.abs(onPage['EKS spot'] - hand) < 1e-6 * hand, `${onPage['EKS spot']} vs ${hand}`);
      // Every platform has its line, today's dashed.
      assert.equal(await page.locator('polyline.payback-line').count(), 3);
      assert.equal(await page.locator('polyline.payback-line.current').getAttribute('data-platform'), 'AWS Batch on-demand');
      assert.match(await page.locator('.payback-says').innerText(), /EKS spot pays back against AWS Batch on-demand in/);
      assert.deepEqual(app.problems, []);
    } finally {
      await app.close();
    }
  });
}
