// Stories: a Slurm user drops last quarter's `sacct -P` dump and reads, per class, what was
// observed beside what will be simulated, and what each Slurm state became; a CPU-only log
// is read with the CPUs-per-GPU they choose; a CSV whose columns the page does not know is
// mapped by hand from a preview. The page's numbers are those of `gpucost history`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, dropFile, openCalculator, openFilesPanel, runId, waitForRun, settledHash } from './harness.mjs';
import { generateSacct } from '../bench/sacct-generate.mjs';

const SACCT = 'tests/data/sacct-gpu.txt';
const SWF = 'tests/data/history.swf';

/** `gpucost history` with `args`: the fit summary it prints on standard error. */
function cliSummary(...args) {
  const bin = process.env.GPUCOST ?? 'target/release/gpucost';
  const out = spawnSync(bin, ['history', ...args], { maxBuffer: 64 << 20, encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return out.stderr;
}

/** Per class line of the summary: name, jobs, per day, observed and simulated mean. */
function summaryClasses(summary) {
  const re = /^(\d+-GPU jobs): (\d+) jobs, ([\d.]+)\/day; hours observed \/ simulated: mean ([\d.]+) \/ ([\d.]+)/gm;
  return [...summary.matchAll(re)].map((m) => ({ name: m[1], jobs: Number(m[2]), perDay: m[3], observed: m[4], simulated: m[5] }));
}


async function pageClasses(page) {
  return page.locator('.fit-table tbody tr').evaluateAll((rows) => rows.map((r) => ({
    name: r.dataset.class,
    jobs: Number(r.dataset.jobs),
    perDay: Number(r.dataset.perDay).toFixed(3),
    observed: Number(r.dataset.observedMean).toFixed(3),
    simulated: Number(r.dataset.simulatedMean).toFixed(3),
  })));
}

test('a sacct -P dump shows its fit table, equal to gpucost history on the same file', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    await openFilesPanel(page);
    const before = await runId(page);
    await dropFile(page, 'sacct.txt', await readFile(SACCT, 'utf8'), 'text/plain');
    await page.locator('.fit-summary').waitFor();
    await waitForRun(page, before);
    assert.equal(await page.locator('.fit-summary').getAttribute('data-format'), 'Slurm sacct -P');
    assert.deepEqual(await pageClasses(page), summaryClasses(cliSummary(SACCT)));
    // Every state the file writes, with what it became.
    const states = await page.locator('.state-table tbody tr').evaluateAll((rows) =>
      Object.fromEntries(rows.map((r) => [r.querySelector('th').textContent, r.querySelector('td:last-child').textContent])));
    assert.match(states['CANCELLED by …'], /^cancelled/);
    assert.match(states.NODE_FAIL, /^failed/);
    assert.match(states.PENDING, /^never started/);
    assert.match(states.RUNNING, /^still running/);
    assert.equal(Object.keys(states).length, 13);
    const lines = await page.locator('.bad-rows li').evaluateAll((els) => els.map((e) => Number(e.dataset.line)));
    assert.deepEqual(lines, [17, 22, 23]);
    assert.equal(await settledHash(page), cli('history', SACCT, '--link').trim());
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('a CPU-only log is read with the CPUs per GPU chosen, and a refit keeps the file', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    await openFilesPanel(page);
    await dropFile(page, 'log.swf', await readFile(SWF, 'utf8'), 'text/plain');
    await page.locator('.fit-summary').waitFor();
    assert.match(await page.locator('.fit-notes').textContent(), /every 8 CPUs/);
    await page.locator('details.history-options > summary').click();
    await page.locator('#history-cpus-per-gpu').fill('16');
    const before = await runId(page);
    await page.getByRole('button', { name: 'Fit the last history again with these options' }).click();
    await page.waitForFunction(() => document.querySelector('.fit-notes')?.textContent.includes('every 16 CPUs'));
    await waitForRun(page, before);
    const legends = await page.locator('fieldset.job-class legend').allTextContents();
    assert.deepEqual(legends, ['1-GPU jobs', '4-GPU jobs']);
    assert.equal(await settledHash(page), cli('history', SWF, '--cpus-per-gpu', '16', '--link').trim());
    // A bad value is named, and the workload stays.
    await page.locator('#history-cpus-per-gpu').fill('0');
    await page.getByRole('button', { name: 'Fit the last history again with these options' }).click();
    await page.locator('.import-error').waitFor();
    assert.match(await page.locator('.import-error').textContent(), /CPUs per GPU "0"/);
    assert.deepEqual(await page.locator('fieldset.job-class legend').allTextContents(), legends);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('a CSV with unknown column names is mapped by hand from a preview', async () => {
  const csv = ['when,how_long_s,cards', '1709300710,3600,2', '1709304310,7200,2', '1709390710,1800,1'].join('\n');
  const app = await openCalculator();
  try {
    const { page } = app;
    await openFilesPanel(page);
    await dropFile(page, 'mine.csv', csv, 'text/csv');
    await page.locator('.column-mapping').waitFor();
    assert.equal(await page.locator('.mapping-preview tbody tr').count(), 3);
    assert.match(await page.locator('.import-error').textContent(), /no submit \(or start\) time column/);
    await page.locator('select[data-role="Submit time"]').selectOption('when');
    await page.locator('select[data-role="Duration, seconds"]').selectOption('how_long_s');
    await page.locator('select[data-role="GPUs"]').selectOption('cards');
    const before = await runId(page);
    await page.getByRole('button', { name: 'Fit with these columns' }).click();
    await page.locator('.fit-summary').waitFor();
    await waitForRun(page, before);
    assert.equal(await page.locator('.fit-table tbody tr').count(), 2);
    const file = join(await mkdtemp(join(tmpdir(), 'gpucost-map-')), 'mine.csv');
    await writeFile(file, csv);
    const link = cli('history', file, '--column', 'submit=when', '--column', 'duration_s=how_long_s', '--column', 'gpus=cards', '--link');
    assert.equal(await settledHash(page), link.trim());
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('a 200,000-job sacct file imports in a worker while the page keeps answering input', async () => {
  // Generated (bench/sacct-generate.mjs, not a fixture): 200,000 allocations, each with a step.
  const text = generateSacct(200_000);
  const app = await openCalculator();
  try {
    const { page } = app;
    await openFilesPanel(page);
    // Main-thread tasks longer than 100 ms while the import runs.
    await page.evaluate(() => {
      window.__longTasks = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
        .observe({ type: 'longtask', buffered: false });
    });
    const started = Date.now();
    await dropFile(page, 'big-sacct.txt', text, 'text/plain');
    await page.locator('.import-progress').waitFor();
    // While it reads, typing into a field still lands, and frames keep coming.
    await page.locator('#save-name').fill('typed during import');
    assert.equal(await page.locator('#save-name').inputValue(), 'typed during import');
    await page.locator('.fit-summary').waitFor({ timeout: 120_000 });
    const took = Date.now() - started;
    assert.equal(await page.locator('.fit-table tbody tr').count(), 4);
    const jobs = await page.locator('.fit-table tbody tr').evaluateAll((rows) => rows.reduce((n, r) => n + Number(r.dataset.jobs), 0));
    assert.equal(jobs, 200_000);
    const longest = Math.max(0, ...(await page.evaluate(() => window.__longTasks)));
    console.log(`# 200,000-job import in the page: ${took} ms; longest main-thread task ${longest.toFixed(0)} ms`);
    // The page kept answering (the typing above landed while the import read); the longest
    // task's time depends on the machine's load, so it is reported, not asserted.
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('the cluster the jobs ran on is added, and its simulated queue wait is set beside the observed', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    await openFilesPanel(page);
    await page.locator('details.history-options > summary').click();
    await page.locator('#history-cluster-gpus').fill('16');
    const before = await runId(page);
    await dropFile(page, 'sacct.txt', await readFile(SACCT, 'utf8'), 'text/plain');
    await page.locator('.fit-summary').waitFor();
    await waitForRun(page, before);
    await page.waitForFunction(() => document.querySelector('section.results').dataset.state === 'done');
    const names = await page.locator('fieldset.platform legend').allTextContents();
    assert.ok(names.some((n) => n.includes('Recorded cluster')), names.join(' | '));
    const line = cliSummary(SACCT, '--cluster-gpus', '16').match(
      /Queue wait, observed \/ simulated on the Recorded cluster: mean ([\d.]+) \/ ([\d.]+) min, p50 ([\d.]+) \/ ([\d.]+) min, p95 ([\d.]+) \/ ([\d.]+) min/);
    assert.ok(line, 'the CLI prints the check');
    const text = await page.locator('.observed-wait').textContent();
    assert.ok(text.includes(`mean ${line[1]} min, median ${line[3]} min, p95 ${line[5]} min.`), text);
    assert.ok(text.includes(`Simulated on the Recorded cluster (`), text);
    assert.ok(text.includes(`mean ${line[2]} min, median ${line[4]} min, p95 ${line[6]} min`), text);
    // A cluster too small for the largest job is refused, and the workload stays.
    const legends = await page.locator('fieldset.job-class legend').allTextContents();
    await page.locator('#history-cluster-gpus').fill('4');
    await page.getByRole('button', { name: 'Fit the last history again with these options' }).click();
    await page.locator('.import-error').waitFor();
    assert.match(await page.locator('.import-error').textContent(), /largest job asks for 8/);
    assert.deepEqual(await page.locator('fieldset.job-class legend').allTextContents(), legends);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('sacct --noheader output is read with the field list, zone and team classes typed in the page, as the CLI reads it', async () => {
  const [header, ...rest] = (await readFile(SACCT, 'utf8')).split('\n');
  const noHeader = rest.join('\n');
  const file = join(await mkdtemp(join(tmpdir(), 'gpucost-noheader-')), 'sacct.txt');
  await writeFile(file, noHeader);
  const app = await openCalculator();
  try {
    const { page } = app;
    await openFilesPanel(page);
    const legends = await page.locator('fieldset.job-class legend').allTextContents();
    await dropFile(page, 'sacct.txt', noHeader, 'text/plain');
    await page.locator('.import-error').waitFor();
    assert.match(await page.locator('.import-error').textContent(), /field list/);
    assert.deepEqual(await page.locator('fieldset.job-class legend').allTextContents(), legends, 'a refused file leaves the workload');
    await page.locator('details.history-options > summary').click();
    await page.locator('#history-sacct-fields').fill(header);
    await page.locator('#history-time-zone').fill('+02:00');
    await page.locator('#history-team-classes').check();
    const before = await runId(page);
    await page.getByRole('button', { name: 'Fit the last history again with these options' }).click();
    await page.locator('.fit-summary').waitFor();
    await waitForRun(page, before);
    const notes = await page.locator('.fit-notes').textContent();
    assert.match(notes, /read as UTC\+02:00/);
    assert.match(notes, /One class per team and GPU count \(2 teams\)/);
    const classes = await page.locator('.fit-table tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.class));
    assert.ok(classes.includes('1-GPU jobs, ml') && classes.includes('1-GPU jobs, research'), classes.join('; '));
    const link = cli('history', file, '--sacct-fields', header, '--tz', '+02:00', '--team-classes', '--link');
    assert.equal(await settledHash(page), link.trim());
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
