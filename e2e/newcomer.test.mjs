// Story: someone new opens the calculator on a phone, a tablet or a desktop, on a slow link,
// and wants the answer: the page fits the screen, shows a loading state at once, leads with a
// verdict, charts that can be compared, and every setting of the scenario.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  SUB_PATH, cli, coldPage, launchBrowser, metric, openCalculator, runId, serveDist, stopServer, typeNumber, waitForRun,
} from './harness.mjs';

/** Waits until the tornado (the last chart to fill) is in. */
async function tornadoDone(page) {
  await page.waitForFunction(() => {
    const readout = document.querySelector('.tornado .readout');
    return readout && !readout.textContent.includes('computing');
  }, null, { timeout: 120_000 });
}

/** SVG text drawn under 11 CSS px: each text's computed size times its SVG's scale. */
function smallChartText(page) {
  return page.evaluate(() => [...document.querySelectorAll('svg text')]
    .map((t) => {
      const svg = t.closest('svg');
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return { text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale };
    })
    .filter((t) => t.px < 11));
}

test('the page fits phone and tablet screens, with the results and legible charts first', async () => {
  for (const [width, height] of [[320, 640], [390, 844], [768, 1024]]) {
    const app = await openCalculator({ width, height });
    try {
      const { page } = app;
      await tornadoDone(page);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(scrollWidth <= width, `${width} px: the page is ${scrollWidth} px wide`);
      if (width === 320) assert.deepEqual(await smallChartText(page), [], 'chart text under 11 px at 320 px');
      if (width === 390) {
        // The first platform's monthly TCO is on the first screen, without scrolling.
        const box = await page.locator('[data-metric="monthly_tco_usd.p50"]').first().boundingBox();
        assert.ok(box.y + box.height <= height, `the first TCO ends at ${box.y + box.height} px`);
        // The switch to the scenario and back.
        await page.getByRole('button', { name: 'Edit the scenario' }).click();
        await page.waitForFunction(() => document.getElementById('scenario-heading').getBoundingClientRect().top < 100);
        await page.getByRole('button', { name: 'Back to the results' }).click();
        await page.waitForFunction(() => Math.abs(document.getElementById('results-heading').getBoundingClientRect().top) < 100);
      }
      assert.deepEqual(app.problems, []);
    } finally {
      await app.close();
    }
  }
});

test('on a slow link the loading shell is on screen before the wasm has arrived', async () => {
  const server = await serveDist(process.env.DIST ?? 'dist');
  const browser = await launchBrowser();
  try {
    const { page, cdp } = await coldPage(browser);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8,
    });
    let wasmDone = false;
    page.on('requestfinished', (r) => { if (r.url().endsWith('.wasm')) wasmDone = true; });
    await page.goto(`http://127.0.0.1:${server.address().port}${SUB_PATH}`, { waitUntil: 'commit' });
    const status = page.locator('#loading-status');
    await status.waitFor({ state: 'visible' });
    const shown = await status.textContent();
    assert.equal(wasmDone, false, 'the shell appeared only after the wasm had loaded');
    assert.match(shown, /Loading the calculator/);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'GPU training and serving cost calculator');
    // Styled (the shell's own inline rules): the masthead's width limit applies.
    assert.equal(await page.locator('.loading-shell .masthead').evaluate((e) => getComputedStyle(e).maxWidth), '1344px');
    // Then the app takes its place: one masthead, no loading status.
    await page.locator('[data-metric="monthly_tco_usd.p50"]').first().waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('#loading-shell').count(), 0);
    assert.equal(await page.locator('h1').count(), 1);
  } finally {
    await browser.close();
    await stopServer(server);
  }
});

test('the verdict names the platform the cards show cheapest per useful GPU-hour', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const perHour = await metric(page, 'usd_per_useful_gpu_hour.p50');
    const cheapest = Object.entries(perHour).sort((a, b) => a[1] - b[1])[0][0];
    const verdict = page.locator('[data-verdict]');
    assert.equal(await verdict.getAttribute('data-verdict'), cheapest);
    const text = await verdict.textContent();
    assert.ok(text.startsWith(`${cheapest} costs least per useful A100-hour`), text);
    // The report's sentence, as the CLI prints it.
    const report = JSON.parse(cli('eval', '--preset', 'batch-vs-eks-spot'));
    assert.ok(text.startsWith(report.verdict), `${text} / ${report.verdict}`);
    // Once the verdict is final (the tornado is in), read at once: the input that moves the
    // winner's cost most.
    await page.waitForSelector('section.results[data-verdict-state="final"]', { timeout: 120_000 });
    assert.match(await verdict.textContent(), /EKS spot's monthly TCO moves most with .+: \$[\d,]+ to \$[\d,]+ for ±20 %\./);
  } finally {
    await app.close();
  }
});

test('where the paired share is between 20 % and 80 %, the verdict crowns no one: the two tie', async () => {
  // EKS spot priced so that it and AWS Batch on demand cost about the same per useful GPU-hour.
  const edits = ['--set', 'platforms.1.spot_usd_per_node_hour=20.3', '--set', 'platforms.1.spot_interruptions_per_node_hour=0.05'];
  const report = JSON.parse(cli('eval', '--preset', 'batch-vs-eks-spot', ...edits));
  const pair = report.paired.find((p) => p.a === 'AWS Batch on-demand' && p.b === 'EKS spot');
  const share = pair.a_lower_usd_per_useful_gpu_hour_share;
  assert.ok(share > 0.2 && share < 0.8, `the scenario's paired share is ${share}`);
  const link = cli('link', '--preset', 'batch-vs-eks-spot', ...edits).trim();
  const app = await openCalculator({ hash: link });
  try {
    const verdict = app.page.locator('[data-verdict]');
    assert.equal(await verdict.getAttribute('data-verdict'), '');
    // Both beat SageMaker in every run, and neither beats the other in 90 % of them: a tie,
    // as the CLI says it.
    assert.match(report.verdict, /^EKS spot and AWS Batch on-demand tie per useful A100-hour .*; both cost less than SageMaker in 100 % of 200 runs\.$/);
    assert.ok((await verdict.textContent()).startsWith(report.verdict), await verdict.textContent());
  } finally {
    await app.close();
  }
});

test('the cost distributions share one dollar axis', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const figure = page.locator('figure.histograms');
    assert.equal(await figure.locator('svg').count(), 1);
    // Every bar of every platform sits where its dollars are on the one axis.
    const misplaced = await figure.locator('svg').evaluate((svg) => {
      const [lo, hi, x0, x1] = ['xMin', 'xMax', 'x0', 'x1'].map((k) => Number(svg.dataset[k]));
      const at = (v) => x0 + ((v - lo) / (hi - lo)) * (x1 - x0);
      return [...svg.querySelectorAll('g.histogram-row')].flatMap((row) => [...row.querySelectorAll('rect')]
        .filter((r) => Math.abs(Number(r.getAttribute('x')) - at(Number(r.dataset.lower))) > 0.01)
        .map((r) => `${row.dataset.platform} ${r.dataset.lower}`));
    });
    assert.deepEqual(misplaced, []);
    const rows = await figure.locator('g.histogram-row').count();
    assert.equal(rows, Object.keys(await metric(page, 'monthly_tco_usd.p50')).length);
    // Each bar says its range and count.
    assert.match(await figure.locator('rect title').first().textContent(), /: \$[\d.]+ – \$[\d.]+, \d+ of 200 runs$/);
  } finally {
    await app.close();
  }
});

test('the seed in "Simulation settings" changes the numbers and the link, and the link reproduces them', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const before = await metric(page, 'monthly_tco_usd.p50');
    await page.locator('details.simulation-settings > summary').click();
    // Out of range: refused with the validation limits, the numbers kept.
    await typeNumber(page, 'simulation-replications', 0);
    const refused = page.locator('.simulation-settings .field', { has: page.locator('#simulation-replications') }).locator('.input-error');
    assert.match(await refused.textContent(), /^Replications must be a number from 1 to [\d,]+; "0" was not applied\.$/);
    const run = await runId(page);
    const hashBefore = await page.evaluate(() => location.hash);
    await typeNumber(page, 'simulation-seed', 7);
    await waitForRun(page, run);
    const after = await metric(page, 'monthly_tco_usd.p50');
    assert.notDeepEqual(after, before);
    // The link is written once the inputs pause.
    await page.waitForFunction((h) => location.hash !== h && location.hash.includes('v=1'), hashBefore);
    const hash = await page.evaluate(() => location.hash);
    const report = JSON.parse(cli('eval', '--url', hash));
    assert.equal(report.scenario.seed, 7);
    for (const p of report.platforms) assert.equal(after[p.name], p.monthly_tco_usd.p50, p.name);
    const again = await openCalculator({ hash });
    try {
      assert.deepEqual(await metric(again.page, 'monthly_tco_usd.p50'), after);
    } finally {
      await again.close();
    }
  } finally {
    await app.close();
  }
});

test('the embed view fits a wiki frame of 640 × 480: the table first, then the chart the link names', async () => {
  const link = cli('link', '--preset', 'batch-vs-eks-spot').trim();
  for (const [chart, figure] of [['', 'breakdown'], ['&chart=distribution', 'histograms'], ['&chart=timeline', 'timeline']]) {
    const app = await openCalculator({ width: 640, height: 480, hash: `${link}&embed=1${chart}` });
    try {
      const { page } = app;
      const rows = page.locator('.embed-table tbody tr');
      const names = await rows.locator('th').allTextContents();
      const expected = JSON.parse(cli('eval', '--preset', 'batch-vs-eks-spot'));
      assert.deepEqual(names, expected.platforms.map((p) => p.name));
      const first = await rows.first().boundingBox();
      assert.ok(first.y + first.height <= 480, `${figure}: the first row ends at ${first.y + first.height} px`);
      assert.equal(await page.locator('.cards').count(), 0);
      assert.equal(await page.locator('figure.chart').count(), 1);
      const shown = await page.locator(`figure.${figure}`).boundingBox();
      assert.ok(shown && shown.y < 480, `${figure}: the chart starts at ${shown?.y} px`);
      assert.ok(await page.locator('[data-verdict]').textContent());
      assert.equal(await page.getByRole('link', { name: 'Open the full calculator' }).count(), 1);
      const tco = await metric(page, 'monthly_tco_usd.p50');
      for (const p of expected.platforms) assert.equal(tco[p.name], p.monthly_tco_usd.p50, p.name);
      assert.deepEqual(app.problems, []);
    } finally {
      await app.close();
    }
  }
});

test('the Embed dialog offers the chart and the frame size', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    await page.getByRole('button', { name: 'Embed' }).click();
    const snippet = page.locator('#embed-snippet');
    assert.match(await snippet.inputValue(), /&embed=1" title="[^"]+" width="640" height="480" /);
    await page.locator('#embed-chart').selectOption('timeline');
    await typeNumber(page, 'embed-width', 800);
    await typeNumber(page, 'embed-height', 600);
    assert.match(await snippet.inputValue(), /&embed=1&chart=timeline" title="[^"]+" width="800" height="600" /);
  } finally {
    await app.close();
  }
});
