// Story: a skeptic reads the verdict of a case where people decide it. The page splits each
// platform's monthly TCO into the cloud bill and ops people as `gpucost eval` does, and its
// verdict is the CLI's sentence, which says that on the cloud bill alone the other platform
// has the lower median, and what each platform's ops people cost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, cliEval, metric, openCalculator, openPreset, runId, settledHash, typeNumber } from './harness.mjs';

const PRESET = 'case-datastax-inference';

test(`${PRESET}: the cards split the TCO into cloud bill and people, and the verdict says people decide it`, async () => {
  const report = cliEval(PRESET, { flips: true });
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
    // Both winners and the people assumption: a service is ranked per million requests.
    assert.match(report.verdict, /^SageMaker endpoint costs least per million requests: .*On the cloud bill alone, EKS \+ Karpenter has the lower median .*ops people decide it, SageMaker endpoint's 0\.1 FTE against EKS \+ Karpenter's 0\.5 FTE at \$200,000 a year/);
    const shown = (await page.locator('.verdict').textContent()).trim();
    assert.ok(shown.startsWith(report.verdict), `page: ${shown}\ncli:  ${report.verdict}`);
    // People decide it, so the ops FTE share is what would flip it, in the page as in the CLI.
    assert.match(report.verdict_flips.sentence, /ops FTE share falls under/);
    await page.waitForSelector('.verdict-flips', { timeout: 120_000 });
    assert.equal(await page.locator('.verdict-flips').textContent(), report.verdict_flips.sentence);

    // "Count ops people in the verdict" off: the same results ranked on the cloud bill alone,
    // as `gpucost eval --set verdict.count_people=false` ranks them, with no new run.
    const billOnly = JSON.parse(cli('eval', '--preset', PRESET, '--set', 'verdict.count_people=false'));
    assert.match(billOnly.verdict, /^EKS \+ Karpenter costs least per million requests on the cloud bill alone, ops people left out: /);
    const run = await runId(page);
    await page.locator('#count-people').uncheck();
    await page.waitForFunction(() => document.querySelector('[data-verdict]').dataset.verdict === 'EKS + Karpenter');
    assert.ok((await page.locator('.verdict').textContent()).startsWith(billOnly.verdict));
    assert.equal(await runId(page), run, 'no new run for the switch');
    // It goes in the link: a page opened on it ranks the same way.
    const hash = await settledHash(page);
    assert.deepEqual(app.problems, []);
    const again = await openCalculator({ hash: `#${hash}` });
    try {
      assert.equal(await again.page.locator('#count-people').isChecked(), false);
      assert.ok((await again.page.locator('.verdict').textContent()).startsWith(billOnly.verdict));
    } finally {
      await again.close();
    }
  } finally {
    await app.close();
  }
});

test('agent-traffic-spike: a service is judged per million requests within its SLO allowance, which the page re-judges without a new run', async () => {
  const PRESET = 'agent-traffic-spike';
  // A strict allowance: 0.1 % of 30 days' minutes is 43 minutes, under every platform's 46–63.
  const strict = ['--set', 'verdict.slo_allowance_pct=0.1'];
  const strictReport = JSON.parse(cli('eval', '--preset', PRESET, ...strict));
  assert.match(strictReport.verdict, /^No platform meets the SLO: .* comes closest, .* On cost alone: SageMaker endpoint costs least per million requests/);
  const report = cliEval(PRESET);
  assert.match(report.verdict, /^SageMaker endpoint costs least per million requests: \$[\d.,]+, \d+ % less than /);
  const app = await openCalculator({ hash: cli('link', '--preset', PRESET, ...strict).trim() });
  try {
    const { page } = app;
    const verdict = page.locator('[data-verdict]');
    assert.ok((await verdict.textContent()).startsWith(strictReport.verdict), await verdict.textContent());
    assert.equal(await verdict.getAttribute('data-verdict'), '', 'no winner is crowned');
    // Each card's cost per million requests is the CLI's.
    const perMillion = await metric(page, 'usd_per_million_requests.p50');
    for (const p of report.platforms) {
      assert.equal(perMillion[p.name], p.usd_per_million_requests.p50, `${p.name}: $ per million requests`);
    }
    // The default allowance, typed in: the same results judged again, as `gpucost eval` does.
    const run = await runId(page);
    await page.locator('details.simulation-settings > summary').click();
    await typeNumber(page, 'simulation-verdict-slo_allowance_pct', 0.5);
    await page.waitForFunction(() => document.querySelector('[data-verdict]').dataset.verdict !== '');
    assert.equal(await verdict.getAttribute('data-verdict'), 'SageMaker endpoint');
    assert.ok((await verdict.textContent()).startsWith(report.verdict), await verdict.textContent());
    assert.equal(await runId(page), run, 'no new run for the verdict\'s settings');
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('batch-vs-eks-spot: the unit names the reference GPU on the cards and in the verdict', async () => {
  const report = cliEval('batch-vs-eks-spot', { flips: true });
  assert.match(report.verdict, /^EKS spot costs least per useful A100-hour: /);
  const app = await openPreset('batch-vs-eks-spot');
  try {
    const { page } = app;
    const labels = await page.locator('.card dt').allTextContents();
    assert.ok(labels.includes('$ per useful A100-hour'), labels.join(' | '));
    assert.ok(!labels.some((l) => l.includes('GPU-hour')), labels.join(' | '));
    assert.ok((await page.locator('.verdict').textContent()).startsWith(report.verdict));
    // What would flip it: the worker's pass after the run gives the CLI's sentence.
    assert.match(report.verdict_flips.sentence, /^It holds unless /);
    await page.waitForSelector('.verdict-flips', { timeout: 120_000 });
    assert.equal(await page.locator('.verdict-flips').textContent(), report.verdict_flips.sentence);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
