// The page's first-load weight is a gate: the bytes a cold page transfers before its first
// simulated number is on screen, with every file served gzip -9 by the test server, must fit
// `scripts/page-weight-budget-kb` (kB of 1,000 bytes). The first number is the loading shell's
// (the `gpucost:first-number` mark, src/first-number-shell.js), else the page's coarse pass
// (`gpucost:coarse:1`). The page's own
// requests are counted by Chromium (`Network.loadingFinished`'s `encodedDataLength` over CDP,
// headers included); the simulation workers' (their loader and the app's glue, fetched by
// each worker) by Playwright's request sizes, body and headers. A change that adds UI must fit
// the budget or raise it in the same commit, saying why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cli, coldPage, launchBrowser, serveDist, stopServer, SUB_PATH } from './harness.mjs';

const BUDGET_KB = Number(readFileSync('scripts/page-weight-budget-kb', 'utf8').trim());

test('a cold page transfers no more than the budget before its first number', async () => {
  // The page's own files are held back until the count is taken, so that none of them can
  // finish loading between the first number and the count.
  const server = await serveDist(process.env.DIST ?? 'dist', { gzip: true, hold: /^gpucost-app-/ });
  const browser = await launchBrowser();
  try {
    const { page, cdp } = await coldPage(browser);
    const urls = new Map();
    const pageFiles = [];
    cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
    cdp.on('Network.loadingFinished', (e) => pageFiles.push({ url: urls.get(e.requestId), bytes: e.encodedDataLength }));
    // Every finished request as Playwright sees it (the workers' too): those beyond the ones
    // CDP counted on the page are the workers'.
    const seen = [];
    page.on('requestfinished', (request) => seen.push(request));
    await page.goto(`http://127.0.0.1:${server.address().port}${SUB_PATH}`);
    // Held back, the page's module cannot show its number: the shell must.
    const first = await (await page.waitForFunction(() =>
      ['gpucost:first-number', 'gpucost:coarse:1'].find((m) => performance.getEntriesByName(m).length > 0),
    null, { timeout: 60_000 }).catch(() => {
      throw new Error('the loading shell showed no first number (gpucost:first-number)');
    })).jsonValue();
    // The worker's requests are reported after its answer when the machine is busy; with the
    // page's own files held, whatever is still to be reported came before the first number.
    const workerModule = /first-number-[0-9a-f]+_bg\.wasm$/;
    for (let i = 0; i < 100 && !seen.some((r) => workerModule.test(r.url())); i += 1) {
      await new Promise((ok) => setTimeout(ok, 100));
    }
    const left = new Map();
    for (const f of pageFiles) left.set(f.url, (left.get(f.url) ?? 0) + 1);
    const workerFiles = [];
    for (const request of seen) {
      const n = left.get(request.url()) ?? 0;
      if (n > 0) {
        left.set(request.url(), n - 1);
        continue;
      }
      const sizes = await request.sizes().catch(() => null);
      if (sizes) workerFiles.push({ url: request.url(), bytes: sizes.responseBodySize + sizes.responseHeadersSize });
    }
    const files = [...pageFiles, ...workerFiles];
    const total = files.reduce((sum, f) => sum + f.bytes, 0);
    const lines = files.map((f) => `  ${String(f.bytes).padStart(9)}  ${new URL(f.url).pathname.replace(SUB_PATH, '')}`);
    console.log(`# first load before the first number (${first}): ${total} bytes (budget ${BUDGET_KB * 1000})\n${lines.join('\n')}`);
    assert.equal(first, 'gpucost:first-number', 'the loading shell showed the first number');
    assert.ok(files.some((f) => workerModule.test(f.url)), 'the first-number module was counted');
    assert.ok(!files.some((f) => /gpucost-app-[0-9a-f]+_bg\.wasm$/.test(f.url)), "the page's module came after the first number");
    assert.ok(total <= BUDGET_KB * 1000, `first load ${total} bytes, past the ${BUDGET_KB} kB budget`);
  } finally {
    server.release();
    await browser.close();
    await stopServer(server);
  }
});

test("the loading shell's first number is the coarse pass gpucost eval computes; then the page takes over", async () => {
  // The page's own module is held back until the shell's numbers have been read.
  const server = await serveDist(process.env.DIST ?? 'dist', { hold: /^gpucost-app-[0-9a-f]+_bg\.wasm$/ });
  const browser = await launchBrowser();
  try {
    const { page } = await coldPage(browser);
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}${SUB_PATH}#v=1&p=multi-team-cluster`);
    await page.waitForSelector('[data-first-number] [data-first-number="monthly_tco_usd"]', { timeout: 60_000 });
    const note = await page.textContent('.first-number-note');
    const [, coarse] = note.match(/first (\d+) of/);
    const report = JSON.parse(cli('eval', '--preset', 'multi-team-cluster', '--reps', coarse));
    const shown = await page.$$eval('[data-first-number] tbody tr', (rows) => rows.map((r) => ({
      name: r.dataset.platform,
      tco: r.querySelector('[data-first-number="monthly_tco_usd"]').dataset.value,
      perHour: r.querySelector('[data-first-number="usd_per_useful_gpu_hour"]').dataset.value,
    })));
    assert.deepEqual(shown.map((p) => p.name), report.platforms.map((p) => p.name));
    for (const [i, p] of report.platforms.entries()) {
      assert.equal(Number(shown[i].tco), p.monthly_tco_usd.p50, `${p.name}: monthly TCO`);
      assert.equal(shown[i].perHour, p.usd_per_useful_gpu_hour ? String(p.usd_per_useful_gpu_hour.p50) : 'n/a', `${p.name}: $/useful GPU-h`);
    }
    assert.ok((await page.textContent('[data-first-number] .verdict')).length > 20, 'a verdict sentence');
    // The page loads, replaces the shell and finishes its own run.
    server.release();
    await page.waitForSelector('.results[data-state="done"]', { timeout: 120_000 });
    assert.equal(await page.locator('#loading-shell').count(), 0, 'the shell is gone');
    assert.deepEqual(errors, []);
  } finally {
    server.release();
    await browser.close();
    await stopServer(server);
  }
});
