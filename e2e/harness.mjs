// Shared set-up for the end-to-end tests: serves the release build (dist/) from a sub-path on a
// loopback port, launches Debian's headless Chromium through playwright-core, and records every
// console error or warning, page error and failed or 4xx/5xx request, so each test can assert
// there were none. Also runs the native CLI, whose numbers the page must reproduce.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { extname, join, normalize, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

// The page is served under a sub-path to prove that its asset paths are relative.
export const SUB_PATH = '/tools/gpu-cost/';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

/**
 * A script the cross-browser suite adds first to the page's head (same origin, so the page's
 * CSP allows it): it keeps every window `error` event's message in `window.__errorEvents`,
 * where a WebDriver session, which cannot add a script before the page's own, reads them.
 */
const ERROR_WATCH = `window.__errorEvents = [];
addEventListener('error', (e) => window.__errorEvents.push(String(e.message)));
`;

/**
 * Serves `distDir` under SUB_PATH on a free loopback port, adding `headers` to every file's
 * response; with `gzip`, compresses each file (gzip -9) for a browser that accepts it, as a
 * static host does; with `watchErrors`, adds the error watch above to index.html. Resolves to
 * the listening http.Server; with `hold` (a RegExp), answers the files whose names match it
 * only once `server.release()` has been called (to look at the loading shell in an engine
 * with no request interception).
 */
export function serveDist(distDir, { headers = {}, gzip = false, watchErrors = false, hold = null } = {}) {
  const root = resolve(distDir);
  let release = () => {};
  const released = new Promise((ok) => { release = ok; });
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (!url.pathname.startsWith(SUB_PATH)) {
      res.writeHead(404).end('not under the sub-path');
      return;
    }
    const rel = url.pathname.slice(SUB_PATH.length) || 'index.html';
    if (hold && hold.test(rel)) await released;
    if (watchErrors && rel === 'error-watch.js') {
      res.writeHead(200, { 'content-type': MIME['.js'] }).end(ERROR_WATCH);
      return;
    }
    const file = normalize(join(root, rel));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      let body = await readFile(file);
      if (watchErrors && rel === 'index.html') {
        body = Buffer.from(body.toString().replace('<head>', '<head><script src="error-watch.js"></script>'));
      }
      const type = { ...headers, 'content-type': MIME[extname(file)] ?? 'application/octet-stream' };
      if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        res.writeHead(200, { ...type, 'content-encoding': 'gzip', vary: 'accept-encoding' });
        res.end(gzipSync(body, { level: 9 }));
      } else {
        res.writeHead(200, type);
        res.end(body);
      }
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  server.release = release;
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

/**
 * A new page of `browser` as a first visit finds it, and its DevTools protocol session with
 * network events on and the cache off (for counting or throttling what a cold load
 * transfers). `contextOptions` go to the page's new context (its viewport, say).
 */
export async function coldPage(browser, contextOptions = {}) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  return { page, cdp };
}

/** Closes an http.Server started here. */
export function stopServer(server) {
  return new Promise((ok) => server.close(ok));
}

/** Debian's headless Chromium (never a downloaded one), with `extraArgs` added to its flags. */
export function launchBrowser(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}

/**
 * Records on `page` (its frames included) every console error or warning, page error, window
 * `error` event (such as a ResizeObserver loop, which no console shows) and failed or 4xx/5xx
 * request into `problems`, and every requested URL into `requests`. Call before navigating.
 */
export async function watchPage(page) {
  const problems = [];
  await page.addInitScript(() => {
    addEventListener('error', (e) => console.error(`window error event: ${e.message}`));
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') {
      problems.push(`console ${msg.type()}: ${msg.text()}`);
    }
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => {
    // The browser fetches the favicon on its own, late; a navigation the test makes (a reload)
    // can abort it. Any other failed request, or a favicon that fails otherwise, is a problem.
    if (/\/favicon-[^/]*$/.test(new URL(req.url()).pathname) && req.failure()?.errorText === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${req.url()}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  const requests = [];
  page.on('request', (req) => requests.push(req.url()));
  return { problems, requests };
}

/**
 * Opens the calculator at `url` (any URL: served, file://) in a fresh browser and waits for its
 * first run; returns { page, url, problems, requests, close }.
 */
export async function openPage(url, { width = 1280, height = 900, hash = '', browserArgs = [] } = {}) {
  const browser = await launchBrowser(browserArgs);
  const page = await browser.newPage({ viewport: { width, height } });
  const { problems, requests } = await watchPage(page);
  try {
    await page.goto(url + hash);
    await waitForRun(page, 0);
  } catch (e) {
    await browser.close();
    throw e;
  }
  return { page, url, problems, requests, close: () => browser.close() };
}

/** Serves dist/ (or $DIST) and opens it; returns { page, url, problems, requests, close }. */
export async function openCalculator({ width = 1280, height = 900, hash = '' } = {}) {
  const server = await serveDist(process.env.DIST ?? 'dist');
  const { port } = server.address();
  try {
    const app = await openPage(`http://127.0.0.1:${port}${SUB_PATH}`, { width, height, hash });
    return {
      ...app,
      async close() {
        await app.close();
        await stopServer(server);
      },
    };
  } catch (e) {
    await stopServer(server);
    throw e;
  }
}

/** The id of the latest run (it changes with every input that starts a new run). */
export async function runId(page) {
  return Number(await page.locator('section.results').getAttribute('data-run'));
}

/** Waits until a run newer than `after` has finished. */
export async function waitForRun(page, after, timeout = 120_000) {
  await page.waitForFunction(
    (prev) => {
      const el = document.querySelector('section.results');
      return el && Number(el.dataset.run) > prev && el.dataset.state === 'done'
        && document.querySelector('[data-metric="monthly_tco_usd.p50"]');
    },
    after,
    { timeout },
  );
}

/** Opens the calculator on `preset` and waits for its run (serving presets take longer). */
export async function openPreset(preset) {
  const app = await openCalculator();
  const before = await runId(app.page);
  await app.page.locator('#preset').selectOption(preset);
  await waitForRun(app.page, before, 300_000);
  return app;
}

/** { platform: number } for one data-metric. */
export async function metric(page, name) {
  return page.locator(`[data-metric="${name}"]`).evaluateAll((els) =>
    Object.fromEntries(els.map((e) => [e.dataset.platform, Number(e.dataset.value)])));
}

/** Sets a number field (by its element id) as a user would: select, type, Enter. */
export async function typeNumber(page, id, value) {
  const field = page.locator(`#${id}`);
  await field.fill(String(value));
  await field.press('Enter');
  await field.blur();
}

/**
 * Runs the native CLI on a preset; returns the parsed JSON. Without `flips`, the report has no
 * `verdict_flips`: that pass runs the scenario again per input (most of the CLI's time on the
 * larger presets), and only a test of the flips sentence needs it.
 */
export function cliEval(preset, { flips = false } = {}) {
  return JSON.parse(cli('eval', '--preset', preset, ...(flips ? [] : ['--no-flips'])));
}

/** Runs the native CLI with `args`; returns its standard output (standard error is dropped). */
export function cli(...args) {
  const bin = process.env.GPUCOST ?? 'target/release/gpucost';
  return execFileSync(bin, args, { maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] })
    .toString();
}

/** Drops a file named `name` holding `text` on the page's import zone, as a user would. */
export async function dropFile(page, name, text, type) {
  const transfer = await page.evaluateHandle(([n, t, ty]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], n, { type: ty }));
    return dt;
  }, [name, text, type]);
  await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer: transfer });
}

/** Opens the "Scenario files" panel (saved scenarios, import by drop or file picker). */
export async function openFilesPanel(page) {
  await page.locator('details.scenario-files > summary').click();
}

/** The fragment once the run is done and the debounced link write after the last edit has
 * happened. */
export async function settledHash(page) {
  await page.waitForFunction(() => document.querySelector('section.results').dataset.state === 'done');
  await page.waitForTimeout(600);
  return page.evaluate(() => location.hash.slice(1));
}
