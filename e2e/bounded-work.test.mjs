// Story: nothing a user does freezes the page or loses their inputs. A 100-day scenario of
// 10,000 jobs a day runs in the worker while the page answers input, and a newer input
// cancels it at once (the worker stuck in one long replication is terminated and replaced);
// a worker that crashes is restarted and the run repeated with the same numbers, and the page
// says so; where there is no worker (the single file) such a scenario is refused with the
// reason instead of freezing the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeSingleFile } from '../scripts/make-single-file.mjs';
import { cli, dropFile, metric, openCalculator, openFilesPanel, openPage, runId, typeNumber, waitForRun } from './harness.mjs';

/** 100 days × ~10,000 jobs a day, three platforms, the page's default 200 replications. */
function hundredDays() {
  const s = JSON.parse(readFileSync('bench/scenarios/hundred-days.json', 'utf8'));
  s.replications = 200;
  return s;
}

/** Records main-thread tasks over 50 ms from now on, into window.__longTasks. */
async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(e.duration);
    }).observe({ type: 'longtask' });
  });
}

test('a 100-day, 10,000-jobs-a-day run never freezes the page, and a newer input cancels it', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    await openFilesPanel(page);
    await watchLongTasks(page);
    const before = await runId(page);
    await dropFile(page, 'hundred-days.json', JSON.stringify(hundredDays()), 'application/json');
    await page.getByText('Opened the scenario in hundred-days.json.').waitFor();
    await page.waitForFunction((prev) => {
      const el = document.querySelector('section.results');
      return Number(el.dataset.run) > prev && el.dataset.state === 'running';
    }, before);
    // The timeline (simulated on the page) shows the hours in which about 5,000 jobs arrive.
    await page.getByText(/^Nodes and jobs in the first 1\d hours of one run$/).waitFor();
    // One replication takes seconds here: the worker is inside the first one.
    await page.waitForTimeout(1500);
    assert.equal(await page.locator('section.results').getAttribute('data-state'), 'running');
    // The page answers input meanwhile: the instant estimate follows the FTE cost at once.
    const estimateBefore = await metric(page, 'estimate.monthly_tco_usd');
    const asked = Date.now();
    await typeNumber(page, 'fte-cost-number', 330000);
    await page.waitForFunction((old) => {
      const els = [...document.querySelectorAll('[data-metric="estimate.monthly_tco_usd"]')];
      return els.length > 0 && els.every((e) => Number(e.dataset.value) > old[e.dataset.platform]);
    }, estimateBefore);
    const answeredMs = Date.now() - asked;
    // Answered while the big run still ran: the run never held the page.
    assert.equal(await page.locator('section.results').getAttribute('data-state'), 'running');
    // A smaller scenario after a while: the worker stuck in the big run's first replication
    // is terminated and replaced (a message would wait for that replication), and the new run
    // finishes with the CLI's numbers.
    await page.waitForTimeout(1000);
    const big = await runId(page);
    await page.locator('#preset').selectOption('batch-vs-eks-spot');
    await waitForRun(page, big, 30_000);
    const marks = await page.evaluate(() => Object.fromEntries(
      performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])));
    const small = big + 1;
    assert.ok(`gpucost:terminated:${small}` in marks, `stuck worker replaced: ${Object.keys(marks)}`);
    for (let r = before + 1; r <= big; r += 1) {
      assert.ok(!(`gpucost:full:${r}` in marks), `the big run ${r} never finished`);
    }
    const doneMs = marks[`gpucost:full:${small}`] - marks[`gpucost:sent:${small}`];
    const expected = JSON.parse(cli('eval', '--preset', 'batch-vs-eks-spot'));
    const shown = await metric(page, 'monthly_tco_usd.p50');
    for (const p of expected.platforms) assert.equal(shown[p.name], p.monthly_tco_usd.p50, p.name);
    const longTasks = await page.evaluate(() => window.__longTasks);
    const longest = Math.max(0, ...longTasks);
    console.log(
      `input answered in ${answeredMs} ms during the big run; the next scenario's run done ` +
      `${doneMs.toFixed(0)} ms after its input; main-thread tasks over 50 ms: ` +
      `${longTasks.length} (longest ${longest.toFixed(0)} ms)`,
    );
    // How long the longest task took depends on the machine and its load, so it is reported
    // here and measured in `make bench` (bench/page-latency.mjs), not asserted: what the page
    // controls is asserted above (input answered during the run, the stuck worker replaced).
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('a crashed worker is restarted, the run repeated with the same numbers, and the page says so', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const [worker] = page.workers();
    assert.ok(worker, 'the page runs a worker');
    const run = await runId(page);
    // An edit, then the worker crashes while simulating it.
    await typeNumber(page, 'fte-cost-number', 300000);
    const restarted = page.waitForEvent('worker');
    await worker.evaluate(() => setTimeout(() => { throw new Error('injected crash'); }, 0));
    await restarted;
    await page.locator('.run-notice').getByText('A simulation worker stopped').waitFor();
    await waitForRun(page, run);
    const expected = JSON.parse(cli(
      'eval', '--preset', 'batch-vs-eks-spot', '--set', 'people.fte_cost_usd_per_year=300000',
    ));
    const shown = await metric(page, 'monthly_tco_usd.p50');
    for (const p of expected.platforms) assert.equal(shown[p.name], p.monthly_tco_usd.p50, p.name);
    assert.equal(await page.locator('.scenario-error').textContent(), '');
    // The edit survived the crash: it is in the link.
    await page.waitForTimeout(600);
    assert.match(await page.evaluate(() => location.hash), /d=/);
    // A new input clears the notice.
    const again = await runId(page);
    await typeNumber(page, 'fte-cost-number', 310000);
    await waitForRun(page, again);
    assert.equal(await page.locator('.run-notice').textContent(), '');
    assert.deepEqual(app.problems.filter((p) => !p.includes('injected crash')), []);
  } finally {
    await app.close();
  }
});

test('a worker that keeps crashing stops the run with the reason, not a loop', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    // Every worker started from now on crashes as soon as it has loaded, three times over. (A
    // worker that fails before it has loaded means there is no worker here: the page runs on
    // its main thread instead, as the embed tests show.)
    let crashes = 0;
    const crash = async (w) => {
      crashes += 1;
      await w.evaluate(() => new Promise((loaded) => {
        const check = () => (self.onmessage ? loaded() : setTimeout(check, 10));
        check();
      })).catch(() => {});
      await w.evaluate(() => setTimeout(() => { throw new Error('injected crash'); }, 50)).catch(() => {});
    };
    // The run first, and past the moment (300 ms after its start) when a worker that has not
    // read it is replaced: on a loaded machine a healthy worker can be that slow, and its
    // replacement would be crashed too and counted.
    const before = await runId(page);
    await typeNumber(page, 'fte-cost-number', 300000);
    await waitForRun(page, before);
    await page.waitForTimeout(500);
    page.on('worker', crash);
    await crash(page.workers()[0]);
    await page.locator('.scenario-error').getByText('did not recover after 2 restarts').waitFor();
    assert.equal(await page.locator('section.results').getAttribute('data-state'), 'done');
    assert.equal(crashes, 3);
  } finally {
    await app.close();
  }
});

test('without a worker (the single file) a scenario too large for the main thread is refused with the reason', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpucost-bounded-'));
  const file = process.env.SINGLE_FILE ? resolve(process.env.SINGLE_FILE) : join(dir, 'gpucost.html');
  if (!process.env.SINGLE_FILE) writeSingleFile(process.env.DIST ?? 'dist', file);
  const app = await openPage(pathToFileURL(file).href);
  try {
    const { page } = app;
    await openFilesPanel(page);
    await watchLongTasks(page);
    const before = await runId(page);
    await dropFile(page, 'hundred-days.json', JSON.stringify(hundredDays()), 'application/json');
    await page.locator('.scenario-error').getByText('more than the page\'s main thread can simulate').waitFor();
    // Refused before any simulation: no run of it started on the main thread (the time of
    // the longest task is reported, not asserted; it depends on the machine's load).
    const marks = await page.evaluate(() => performance.getEntriesByType('mark').map((m) => m.name));
    const simulated = marks.filter((m) => /^gpucost:coarse:\d+$/.test(m) && Number(m.split(':')[2]) > before);
    assert.deepEqual(simulated, []);
    assert.equal(await page.locator('section.results').getAttribute('data-state'), 'done');
    const longest = Math.max(0, ...(await page.evaluate(() => window.__longTasks)));
    console.log(`# refused on the main thread; longest task ${longest.toFixed(0)} ms; marks ${marks.length}`);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
