// Story: someone opens the calculator link; the page renders cleanly from a sub-path and its
// numbers are those of the command-line model for the same scenario and seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { SUB_PATH, cliEval, launchBrowser, metric, openCalculator, runId, serveDist, stopServer, waitForRun } from './harness.mjs';

test('the release page renders the default preset with no errors, from a sub-path', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    assert.equal(await page.title(), 'GPU training and serving cost calculator');
    assert.equal(
      await page.getByRole('heading', { level: 1 }).textContent(),
      'GPU training and serving cost calculator',
    );
    // Controls are reachable by their labels.
    for (const label of ['Spot interruption rate', 'Utilization', 'Egress per job', 'Egress price',
      'FTE cost', 'Warm-pool window', 'Image pull time', 'Checkpoint interval', 'Reserved share']) {
      assert.equal(await page.getByLabel(label, { exact: false }).first().getAttribute('type'), 'range', label);
    }
    // A Content-Security-Policy the page satisfies: no inline script, only its own origin.
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
    assert.equal(await page.locator('script:not([src])').count(), 0);
    // One inline style, the loading shell's, allowed by its hash and nothing else.
    const styles = await page.locator('style').allTextContents();
    assert.equal(styles.length, 1);
    const hash = createHash('sha256').update(styles[0]).digest('base64');
    assert.match(csp, new RegExp(`style-src 'self' 'sha256-${hash.replace(/[+/]/g, '\\$&')}';`));
    // The simulation ran in the Web Worker.
    // One worker per core but one (at least one), each with its share of the replications.
    assert.match(await page.locator('.runner-note').textContent(), /^Simulated in (a background worker|\d+ background workers)\.$/);
    // One fieldset per platform, its legend the platform's name.
    const legends = await page.locator('fieldset.platform legend').allTextContents();
    const cli = cliEval('batch-vs-eks-spot');
    assert.deepEqual(legends, cli.platforms.map((p) => p.name));

    // The favicon is linked relative to the page and served.
    const iconHref = await page.locator('link[rel="icon"]').getAttribute('href');
    assert.ok(!iconHref.startsWith('/'), `favicon path should be relative: ${iconHref}`);
    const status = await page.evaluate(async (href) => (await fetch(href)).status, iconHref);
    assert.equal(status, 200);

    for (const url of app.requests) {
      assert.ok(url.startsWith(app.url), `request outside the page's folder: ${url}`);
    }
    await page.screenshot({ path: 'e2e/artifacts/page-loads.png', fullPage: true });
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('every preset shows the numbers gpucost eval computes for it', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const presets = await page.locator('#preset option').evaluateAll((os) => os.map((o) => o.value));
    assert.ok(presets.length >= 7);
    for (const preset of presets) {
      if (preset !== 'batch-vs-eks-spot') {
        const before = await runId(page);
        await page.locator('#preset').selectOption(preset);
        await waitForRun(page, before);
      }
      const cli = cliEval(preset);
      const shown = await metric(page, 'monthly_tco_usd.p50');
      const perHour = await metric(page, 'usd_per_useful_gpu_hour.p50');
      for (const p of cli.platforms) {
        assert.ok(Math.abs(shown[p.name] - p.monthly_tco_usd.p50) <= 1e-9 * p.monthly_tco_usd.p50,
          `${preset} / ${p.name}: page ${shown[p.name]} vs CLI ${p.monthly_tco_usd.p50}`);
        // A hosted API has no GPU-hours of its own: n/a on the page, null in the report.
        if (p.usd_per_useful_gpu_hour === null) {
          assert.ok(Number.isNaN(perHour[p.name]), `${preset} / ${p.name}: $/GPU-h shown ${perHour[p.name]}`);
        } else {
          assert.ok(Math.abs(perHour[p.name] - p.usd_per_useful_gpu_hour.p50) <= 1e-9 * perHour[p.name],
            `${preset} / ${p.name}: $/GPU-h`);
        }
      }
    }
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('where the WebAssembly cannot start, the page says why instead of staying blank', async () => {
  const server = await serveDist(process.env.DIST ?? 'dist');
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    // As a browser without WebAssembly SIMD (or a damaged download) would see it.
    await page.route('**/gpucost-app-*_bg.wasm', (route) =>
      route.fulfill({ status: 200, contentType: 'application/wasm', body: Buffer.from('not wasm') }));
    await page.goto(`http://127.0.0.1:${server.address().port}${SUB_PATH}`);
    const message = page.locator('.start-error');
    await message.waitFor();
    assert.match(await message.textContent(), /could not start in this browser \(CompileError: .*\)\. It needs WebAssembly with SIMD/);
    assert.equal(await message.getAttribute('role'), 'alert');
    // In the loading shell's place: its status line is gone, its title stays.
    assert.equal(await page.locator('#loading-status').count(), 0);
    assert.equal(await page.locator('#loading-shell .start-error').count(), 1);
  } finally {
    await browser.close();
    await stopServer(server);
  }
});
