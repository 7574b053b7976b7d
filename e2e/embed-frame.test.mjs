// Story: a colleague pastes the Embed dialog's <iframe> snippet into a wiki page on another
// origin; the framed calculator shows the scenario's numbers, without the editor, under its own
// Content-Security-Policy, simulating in its worker and loading nothing from anywhere else. If
// the wiki strips allow-same-origin from the sandbox, the frame still works, on its main thread.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import {
  SUB_PATH, cli, launchBrowser, metric, openPage, serveDist, stopServer, waitForRun, watchPage,
} from './harness.mjs';

// A sandbox without allow-same-origin gives the framed page an opaque origin ("null"), so every
// request it makes, even to the server it came from, is cross-origin. The module scripts and the
// wasm (fetch, and its crossorigin preload) are CORS requests: without this header all three are
// blocked ("No 'Access-Control-Allow-Origin' header") and the app never starts. The document itself
// and the stylesheet are not CORS requests. (CSP 'self' still means the app's origin there.)
// A static host serving the calculator for embedding needs this header; it is harmless for
// public, credential-free files.
const APP_HEADERS = { 'access-control-allow-origin': '*' };

/** The wiki, on a second loopback server: each of `pages` (path: HTML fragment) in a page. */
function serveWiki(pages) {
  const server = createServer((req, res) => {
    const body = pages[new URL(req.url, 'http://localhost').pathname];
    if (body === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    // The data: icon keeps the browser from asking the wiki for /favicon.ico.
    res.end(`<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Team wiki</title>
<link rel="icon" href="data:,"></head>
<body><h1>GPU costs</h1><p>Our numbers, live:</p>\n${body}\n</body></html>`);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

let app;
let wiki;
let appUrl;
let wikiOrigin;
let snippet;
let served; // the default scenario's numbers on the full page
const pages = {};
before(async () => {
  app = await serveDist(process.env.DIST ?? 'dist', { headers: APP_HEADERS });
  appUrl = `http://127.0.0.1:${app.address().port}${SUB_PATH}`;
  // `localhost` rather than 127.0.0.1: another origin, and another site, as a wiki would be.
  wiki = await serveWiki(pages);
  wikiOrigin = `http://localhost:${wiki.address().port}`;
  const full = await openPage(appUrl);
  try {
    await full.page.getByRole('button', { name: 'Embed' }).click();
    snippet = await full.page.locator('#embed-snippet').inputValue();
    served = await metric(full.page, 'monthly_tco_usd.p50');
    assert.deepEqual(full.problems, []);
  } finally {
    await full.close();
  }
});
after(async () => {
  if (wiki) await stopServer(wiki);
  if (app) await stopServer(app);
});

/**
 * Opens the wiki page holding `iframe` in a fresh browser; waits for the framed calculator's
 * first run. Returns { frame, page, problems, requests, wikiUrl, close }.
 */
async function openWiki(name, iframe) {
  const path = `/wiki/${name}.html`;
  pages[path] = iframe;
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const { problems, requests } = await watchPage(page);
    const wikiUrl = wikiOrigin + path;
    await page.goto(wikiUrl);
    const frame = await (await page.locator('iframe').elementHandle()).contentFrame();
    await waitForRun(frame, 0);
    return { frame, page, problems, requests, wikiUrl, close: () => browser.close() };
  } catch (e) {
    await browser.close();
    throw e;
  }
}

/** What every embedded view shows: the numbers, no editor, the link to the full calculator. */
async function assertEmbeddedView(frame) {
  assert.deepEqual(await metric(frame, 'monthly_tco_usd.p50'), served);
  assert.equal(await frame.locator('section.scenario').count(), 0);
  assert.equal(await frame.locator('#preset').count(), 0);
  const href = await frame.getByRole('link', { name: 'Open the full calculator' }).getAttribute('href');
  assert.ok(href.startsWith(appUrl) && !href.includes('embed=1'), href);
}

test('the Embed snippet is the iframe the wiki gets', () => {
  assert.ok(snippet.startsWith(`<iframe src="${appUrl}#v=1&p=batch-vs-eks-spot@3&d=`), snippet);
  assert.match(snippet, /&embed=1" /);
  assert.match(snippet, / sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox" /);
});

test('framed as the snippet says: the numbers, under the CSP, in the worker, nothing from elsewhere', async () => {
  const wikiPage = await openWiki('same-origin', snippet);
  try {
    const { frame } = wikiPage;
    assert.equal(await frame.evaluate(() => self.origin), new URL(appUrl).origin);
    await assertEmbeddedView(frame);
    assert.match(
      await frame.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content'),
      /script-src 'self' 'wasm-unsafe-eval'/,
    );
    assert.match(await frame.locator('.runner-note').textContent(), /^Simulated in (a background worker|\d+ background workers)\.$/);
    for (const url of wikiPage.requests) {
      assert.ok(url === wikiPage.wikiUrl || url.startsWith(appUrl), `request outside the app's folder: ${url}`);
    }
    assert.ok(wikiPage.requests.some((u) => u.endsWith('/worker-loader.js')), wikiPage.requests.join(', '));
    assert.deepEqual(wikiPage.problems, []);
  } finally {
    await wikiPage.close();
  }
});

// The stylesheet carries Trunk's `integrity`; index.html gives it crossorigin="anonymous", so
// from an opaque origin it is fetched with CORS and can be integrity-checked (without it
// Chromium blocks it and the frame is unstyled).
test('framed without allow-same-origin: an opaque origin, still the numbers, on the main thread', async () => {
  const iframe = snippet.replace(/ sandbox="[^"]*"/, ' sandbox="allow-scripts"');
  const wikiPage = await openWiki('opaque', iframe);
  try {
    const { frame } = wikiPage;
    assert.equal(await frame.evaluate(() => self.origin), 'null');
    await assertEmbeddedView(frame);
    assert.equal(
      await frame.locator('.runner-note').textContent(),
      "No background worker here: simulated on the page's main thread in short slices.",
    );
    for (const url of wikiPage.requests) {
      assert.ok(url === wikiPage.wikiUrl || url.startsWith(appUrl), `request outside the app's folder: ${url}`);
    }
    assert.ok(await frame.evaluate(() => document.querySelector('link[rel="stylesheet"]').sheet !== null),
      'stylesheet blocked');
    assert.deepEqual(wikiPage.problems, []);
  } finally {
    await wikiPage.close();
  }
});

test('the full calculator in a frame without storage: it says saving is off, and still runs', async () => {
  const iframe = `<iframe src="${appUrl}" title="GPU training and serving cost calculator" width="100%" height="1200" sandbox="allow-scripts"></iframe>`;
  const wikiPage = await openWiki('no-storage', iframe);
  try {
    const { frame } = wikiPage;
    await frame.locator('details.scenario-files > summary').click();
    assert.match(await frame.locator('.scenario-files .note').textContent(), /^Saving is unavailable here/);
    assert.equal(await frame.locator('#save-name').isDisabled(), true);
    assert.deepEqual(await metric(frame, 'monthly_tco_usd.p50'), served);
    assert.deepEqual(wikiPage.problems, []);
  } finally {
    await wikiPage.close();
  }
});

test('a replay link in a frame without storage says the jobs are not there and shows the fitted classes', async () => {
  const link = cli('history', 'tests/data/sacct-gpu.txt', '--replay', '--link').trim();
  const fitted = JSON.parse(cli('eval', '--url', `#${link}`));
  const iframe = `<iframe src="${appUrl}#${link}" title="GPU training and serving cost calculator" width="100%" height="1200" sandbox="allow-scripts"></iframe>`;
  const wikiPage = await openWiki('replay-no-storage', iframe);
  try {
    const { frame } = wikiPage;
    const banner = frame.locator('.replay-banner[data-replay="missing"]');
    await banner.waitFor();
    assert.match(await banner.textContent(), /is not here: this page cannot read the browser's storage here \(/);
    await frame.waitForFunction(() => document.querySelector('section.results').dataset.state === 'done');
    const shown = await metric(frame, 'monthly_tco_usd.p50');
    for (const p of fitted.platforms) assert.equal(shown[p.name], p.monthly_tco_usd.p50, p.name);
    assert.deepEqual(wikiPage.problems, []);
  } finally {
    await wikiPage.close();
  }
});
