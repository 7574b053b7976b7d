// The page's first-load weight is a gate: the bytes a cold page transfers before its first
// simulated number (the `gpucost:coarse:1` mark), with every file served gzip -9 by the test
// server, must fit `scripts/page-weight-budget-kb` (kB of 1,000 bytes). The page's own
// requests are counted by Chromium (`Network.loadingFinished`'s `encodedDataLength` over CDP,
// headers included); the simulation workers' (their loader and the app's glue, fetched by
// each worker) by Playwright's request sizes, body and headers. A change that adds UI must fit
// the budget or raise it in the same commit, saying why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { coldPage, launchBrowser, serveDist, stopServer, SUB_PATH } from './harness.mjs';

const BUDGET_KB = Number(readFileSync('scripts/page-weight-budget-kb', 'utf8').trim());

test('a cold page transfers no more than the budget before its first number', async () => {
  const server = await serveDist(process.env.DIST ?? 'dist', { gzip: true });
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
    await page.waitForFunction(() => performance.getEntriesByName('gpucost:coarse:1').length > 0, null, { timeout: 120_000 });
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
    console.log(`# first load before the first number: ${total} bytes (budget ${BUDGET_KB * 1000})\n${lines.join('\n')}`);
    assert.ok(files.some((f) => f.url.endsWith('.wasm')), 'the app module was counted');
    assert.ok(total <= BUDGET_KB * 1000, `first load ${total} bytes, past the ${BUDGET_KB} kB budget`);
  } finally {
    await browser.close();
    await stopServer(server);
  }
});
