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
import { metric, openCalculator, openPage, runId, typeNumber, waitForRun } from './harness.mjs';

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
  assert.equal(await page.title(), 'GPU training cost calculator');
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
