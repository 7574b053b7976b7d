// Shared set-up for the end-to-end tests: serves the release build (dist/) from a sub-path on a
// loopback port, launches Debian's headless Chromium through playwright-core, and records every
// console error, page error and failed or 4xx/5xx request, so each test can assert there were none.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
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
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

function serveDist(distDir) {
  const root = resolve(distDir);
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (!url.pathname.startsWith(SUB_PATH)) {
      res.writeHead(404).end('not under the sub-path');
      return;
    }
    const rel = url.pathname.slice(SUB_PATH.length) || 'index.html';
    const file = normalize(join(root, rel));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

/** Starts the server and the browser; returns { page, url, problems, close }. */
export async function openCalculator() {
  const server = await serveDist(process.env.DIST ?? 'dist');
  const { port } = server.address();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') {
      problems.push(`console ${msg.type()}: ${msg.text()}`);
    }
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  const origin = `http://127.0.0.1:${port}`;
  const url = `${origin}${SUB_PATH}`;
  const requests = [];
  page.on('request', (req) => requests.push(req.url()));
  await page.goto(url);
  // The app has mounted once the chart's bars exist.
  await page.locator('svg rect.bar').first().waitFor();
  return {
    page,
    url,
    origin,
    problems,
    requests,
    async close() {
      await browser.close();
      await new Promise((ok) => server.close(ok));
    },
  };
}

/** The raw number a chart bar stands for, read from its data-value attribute. */
export async function barValue(page, label) {
  const text = await page.locator(`rect.bar[data-label="${label}"]`).getAttribute('data-value');
  return Number(text);
}

/** Money as the page formats it: whole dollars with thousands separators. */
export function usd(value) {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 0,
  }).format(value);
}
