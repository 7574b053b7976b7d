// Stories: a team drops its job history and gets fitted job classes (bad rows named by line)
// that travel in the link; exports the results for a spreadsheet and the charts for a slide;
// saves scenarios by name (a damaged entry is reported, the rest survive a reload); drops a
// scenario JSON; compares two links side by side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { cli, dropFile, metric, openCalculator, openFilesPanel, runId, typeNumber, waitForRun, settledHash } from './harness.mjs';

const SAMPLE = 'tests/data/job-history-sample.csv';


test('a job-history CSV becomes fitted classes, bad rows by line, and the link carries them', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    await openFilesPanel(page);
    const before = await runId(page);
    await page.locator('#import-file').setInputFiles(SAMPLE);
    await page.locator('.fit-summary').waitFor();
    await waitForRun(page, before);
    // The sample has three bad rows, at lines 11, 21 and 31 (see the file).
    const lines = await page.locator('.bad-rows li').evaluateAll((els) => els.map((e) => Number(e.dataset.line)));
    assert.deepEqual(lines, [11, 21, 31]);
    const reasons = await page.locator('.bad-rows li').allTextContents();
    assert.match(reasons[0], /line 11: submit time "2025-09-01T11:61:00Z" is not a date-time/);
    assert.match(reasons[2], /outcome "EXPLODED"/);
    const legends = await page.locator('fieldset.job-class legend').allTextContents();
    assert.deepEqual(legends, ['1-GPU jobs', '8-GPU jobs', '16-GPU jobs', '32-GPU jobs']);
    const rows = await page.locator('.fit-table tbody tr').count();
    assert.equal(rows, 4);
    // The page's link is the one `gpucost history --link` prints for the same file, and the
    // page shows the numbers `gpucost eval --url` computes from it.
    const hash = await settledHash(page);
    assert.equal(hash, cli('history', SAMPLE, '--link').trim());
    const expected = JSON.parse(cli('eval', '--url', hash));
    const shown = await metric(page, 'monthly_tco_usd.p50');
    for (const p of expected.platforms) {
      assert.equal(shown[p.name], p.monthly_tco_usd.p50, p.name);
    }
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('results download as the JSON and CSV gpucost eval prints; charts as SVG and PNG', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const save = async (button) => {
      const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
      return { name: download.suggestedFilename(), body: await readFile(await download.path()) };
    };
    const bar = page.locator('.export-bar');
    // Once every pass after the run is in (what would flip the verdict is in the JSON).
    await page.waitForSelector('[data-verdict-state="final"]', { timeout: 120_000 });
    const json = await save(bar.getByRole('button', { name: 'JSON', exact: true }));
    assert.equal(json.name, 'gpucost-results.json');
    assert.equal(json.body.toString() + '\n', cli('eval', '--preset', 'batch-vs-eks-spot'));
    const csv = await save(bar.getByRole('button', { name: 'CSV', exact: true }));
    assert.equal(csv.body.toString(), cli('eval', '--preset', 'batch-vs-eks-spot', '--format', 'csv'));

    for (const chart of ['breakdown', 'histograms', 'timeline', 'tornado']) {
      if (chart === 'tornado') {
        await page.locator('figure.chart.tornado svg').first().waitFor({ timeout: 60_000 });
      }
      await page.locator('#export-chart').selectOption(chart);
      const svg = await save(bar.getByRole('button', { name: 'SVG', exact: true }));
      const text = svg.body.toString();
      assert.match(text, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/, chart);
      // A standalone document: it parses as XML, with the styles inlined.
      const parsed = await page.evaluate((t) => {
        const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
        return { error: doc.querySelector('parsererror')?.textContent ?? null, styled: doc.querySelectorAll('[fill]').length };
      }, text);
      assert.equal(parsed.error, null, `${chart}: ${parsed.error}`);
      assert.ok(parsed.styled > 5, `${chart}: styles inlined`);
      const png = await save(bar.getByRole('button', { name: 'PNG', exact: true }));
      assert.ok(png.name.endsWith('.png'));
      assert.deepEqual([...png.body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], chart);
      assert.ok(png.body.length > 5_000, `${chart}: PNG of ${png.body.length} bytes`);
    }
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('saved scenarios survive a reload; a damaged entry is reported and skipped', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    await openFilesPanel(page);
    let run = await runId(page);
    await typeNumber(page, 'fte-cost-number', 210000);
    await waitForRun(page, run);
    const edited = await metric(page, 'monthly_tco_usd.p50');
    await page.locator('#save-name').fill('Team plan <b>v2</b>');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved "Team plan <b>v2</b>".').waitFor();
    // Another tab (or an old version) left a damaged entry behind.
    await page.evaluate(() => localStorage.setItem('gpucost.saved.Broken', '{"link": 42'));
    // Let the page's own requests (the favicon among them) finish: a navigation aborts them.
    await page.waitForLoadState('networkidle');
    await page.goto(app.url); // the default scenario again, no fragment
    await waitForRun(page, 0);
    await openFilesPanel(page);
    const damaged = await page.locator('.saved-list li.damaged').textContent();
    assert.match(damaged, /"Broken" is damaged and was skipped/);
    assert.equal(await page.locator('.saved-list b').count(), 0, 'names are text, never markup');
    run = await runId(page);
    await page.getByRole('button', { name: 'Open Team plan <b>v2</b>' }).click();
    await waitForRun(page, run);
    assert.deepEqual(await metric(page, 'monthly_tco_usd.p50'), edited);
    await page.getByRole('button', { name: 'Delete Broken' }).click();
    assert.equal(await page.locator('.saved-list li.damaged').count(), 0);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('a dropped scenario JSON replaces the scenario; a broken one names the field', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    await openFilesPanel(page);
    const scenario = JSON.parse(cli('scenario', '--preset', 'spot-p4d-retrains'));
    const drop = (name, text) => dropFile(page, name, text, 'application/json');
    const run = await runId(page);
    await drop('retrains.json', JSON.stringify(scenario));
    await page.getByText('Opened the scenario in retrains.json.').waitFor();
    await waitForRun(page, run);
    const expected = JSON.parse(cli('eval', '--preset', 'spot-p4d-retrains'));
    const shown = await metric(page, 'monthly_tco_usd.p50');
    for (const p of expected.platforms) assert.equal(shown[p.name], p.monthly_tco_usd.p50, p.name);

    scenario.platforms[0].spot_interruptions_per_node_hour = 'often';
    await drop('broken.json', JSON.stringify(scenario));
    const error = await page.locator('.import-error').textContent();
    assert.match(error, /broken\.json: .*platforms\[0\]\.spot_interruptions_per_node_hour/);
    assert.deepEqual(await metric(page, 'monthly_tco_usd.p50'), shown, 'scenario unchanged');
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('Compare shows two links side by side with the differences highlighted', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const linkB = cli('link', '--preset', 'batch-vs-eks-spot', '--set', 'platforms.1.spot_interruptions_per_node_hour=0.05').trim();
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.locator('#compare-b').fill(`https://example.org/calc/#${linkB}`);
    await page.locator('.compare-panel').getByRole('button', { name: 'Compare', exact: true }).click();
    await page.locator('.comparison[data-state="done"]').waitFor({ timeout: 120_000 });
    const fields = await page.locator('.compare-differences tr.differs code').allTextContents();
    assert.deepEqual(fields, ['platforms.1.node_pools.0.spot_interruptions_per_node_hour']);
    // A is the page's scenario, B the CLI's with the higher interruption rate.
    const a = JSON.parse(cli('eval', '--preset', 'batch-vs-eks-spot'));
    const b = JSON.parse(cli('eval', '--url', linkB));
    for (const [i, p] of a.platforms.entries()) {
      const row = page.locator(`.compare-numbers tr[data-platform="${p.name}"]`);
      assert.equal(Number(await row.locator('[data-side="a"]').getAttribute('data-value')), p.monthly_tco_usd.p50);
      assert.equal(Number(await row.locator('[data-side="b"]').getAttribute('data-value')), b.platforms[i].monthly_tco_usd.p50);
      const differs = (await row.locator('[data-side="a"]').getAttribute('class')) === 'differs';
      assert.equal(differs, p.monthly_tco_usd.p50 !== b.platforms[i].monthly_tco_usd.p50, p.name);
    }
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
