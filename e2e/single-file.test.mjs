// Story: someone saves the calculator as one HTML file (scripts/make-single-file.mjs) and opens
// it from disk; with no server and no network it runs, simulating on the page's main thread
// (file:// is an opaque origin: no worker), and shows exactly the served page's numbers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeSingleFile } from '../scripts/make-single-file.mjs';
import { cliEval, metric, openCalculator, openPage, runId, typeNumber, waitForRun } from './harness.mjs';

// `make test-e2e` passes the file it made; otherwise it is made here (in a temporary folder) from
// the same $DIST that the served page comes from, so the two are always the same build.
let madeHere;
function singleFile() {
  if (process.env.SINGLE_FILE) return resolve(process.env.SINGLE_FILE);
  madeHere = mkdtempSync(join(tmpdir(), 'gpucost-single-'));
  const out = join(madeHere, 'gpucost.html');
  writeSingleFile(process.env.DIST ?? 'dist', out);
  return out;
}

/** The headline numbers of the finished run: { metric: { platform: value } }. */
async function headlines(page) {
  return {
    monthly: await metric(page, 'monthly_tco_usd.p50'),
    perHour: await metric(page, 'usd_per_useful_gpu_hour.p50'),
  };
}

let served;
let single;
before(async () => {
  served = await openCalculator();
  single = await openPage(pathToFileURL(singleFile()).href);
});
after(async () => {
  await single?.close();
  await served?.close();
  if (madeHere) rmSync(madeHere, { recursive: true, force: true });
});

test('the single file opens from file:// with everything inline and the served numbers', async () => {
  const { page } = single;
  assert.equal(await page.title(), 'GPU training and serving cost calculator');
  assert.equal(
    await page.locator('.runner-note').textContent(),
    "No background worker here: simulated on the page's main thread in short slices.",
  );
  // Self-contained: no CSP meta (it could not be satisfied), nothing loaded from a file.
  assert.equal(await page.locator('meta[http-equiv="Content-Security-Policy"]').count(), 0);
  assert.equal(await page.locator('script[src], link[href]:not([href^="data:"])').count(), 0);
  const theirs = await headlines(served.page);
  assert.equal(Object.keys(theirs.monthly).length, 3);
  assert.deepEqual(await headlines(page), theirs);
});

test('a preset chosen in the single file gives the served page\'s numbers for it', async () => {
  for (const { page } of [served, single]) {
    const run = await runId(page);
    await page.locator('#preset').selectOption('spot-p4d-retrains');
    await waitForRun(page, run);
  }
  const theirs = await headlines(served.page);
  assert.ok(Object.keys(theirs.monthly).length > 0);
  assert.deepEqual(await headlines(single.page), theirs);
});

// The main thread keeps its last run's outcomes by platform, as the workers do: an edit that
// changes only the platforms on spot simulates only those again, and the numbers must be those
// of a fresh run (the served page's). The time it saves is measured by `make bench`.
test('moving the spot interruption rate in the single file gives the served page\'s numbers', async () => {
  for (const rate of [0.07, 0.01]) {
    for (const { page } of [served, single]) {
      const run = await runId(page);
      await typeNumber(page, 'spot-rate-number', rate);
      await waitForRun(page, run);
    }
    const theirs = await headlines(served.page);
    assert.ok(Object.keys(theirs.monthly).length > 0);
    assert.deepEqual(await headlines(single.page), theirs, `rate ${rate}`);
  }
});

test('the single file asked for nothing but itself, and logged no errors', () => {
  for (const url of single.requests) {
    assert.match(url, /^(file|data|blob):/, `request off the disk: ${url}`);
  }
  assert.deepEqual(single.problems, []);
  assert.deepEqual(served.problems, []);
});

// Chromium started with --allow-file-access-from-files lets a file:// page make a worker, which
// then cannot load (the loader is not next to the single file, or cannot take the module). A
// worker that fails to start is a fallback at once: no page error, and no wait for the 8 s
// watchdog that is kept for a worker that stays silent.
test('the single file where file:// may make workers falls back to the main thread at once', async () => {
  const opened = await openPage(pathToFileURL(singleFile()).href, {
    browserArgs: ['--allow-file-access-from-files'],
  });
  try {
    const { page, problems } = opened;
    assert.equal(
      await page.locator('.runner-note').textContent(),
      "No background worker here: simulated on the page's main thread in short slices.",
    );
    // The page's own clock, from navigation to the coarse pass on screen: before the 8 s
    // watchdog could have fired, so the fallback did not wait for it (about 1 to 2.5 s here,
    // by the machine's load: the bound is the watchdog's, not a speed target).
    const coarseAt = await page.evaluate(() =>
      performance.getEntriesByName('gpucost:coarse:1')[0]?.startTime);
    assert.ok(coarseAt !== undefined && coarseAt < 8000, `first numbers after ${coarseAt} ms`);
    // The default preset's numbers, as the command-line tool computes them.
    const cli = cliEval('batch-vs-eks-spot');
    const shown = await metric(page, 'monthly_tco_usd.p50');
    assert.equal(Object.keys(shown).length, cli.platforms.length);
    for (const p of cli.platforms) {
      assert.ok(Math.abs(shown[p.name] - p.monthly_tco_usd.p50) <= 1e-9 * p.monthly_tco_usd.p50,
        `${p.name}: page ${shown[p.name]} vs CLI ${p.monthly_tco_usd.p50}`);
    }
    // The one failed request is the worker's loader, which the single file leaves out: that
    // failure is how the worker fails to start here. No page error, no console error.
    const loader = /^request failed: file:.*\/worker-loader\.js$/;
    assert.deepEqual(problems.filter((p) => !loader.test(p)), []);
  } finally {
    await opened.close();
  }
});
