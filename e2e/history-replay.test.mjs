// Story: a Slurm user asks "what would *these* jobs have cost?": they tick "Replay the exact
// jobs", drop last quarter's sacct dump, and read the replay's numbers, which are those of
// `gpucost history --replay`. The page keeps the jobs in the browser under their content
// key, and the link names the key: opened again in the same browser it replays them; opened
// in a browser that does not keep them, it says so and shows the fitted classes it carries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { cli, dropFile, metric, openCalculator, openFilesPanel, runId, waitForRun, settledHash } from './harness.mjs';

const SACCT = 'tests/data/sacct-gpu.txt';


test('a replayed history runs the recorded jobs, is kept under its key, and its link reopens it', async () => {
  const report = JSON.parse(cli('history', SACCT, '--replay'));
  const link = cli('history', SACCT, '--replay', '--link').trim();
  const key = link.match(/&r=([0-9a-f]{32})$/)?.[1];
  assert.ok(key, link);
  const app = await openCalculator();
  try {
    const { page } = app;
    await openFilesPanel(page);
    await page.locator('details.history-options > summary').click();
    await page.locator('#history-replay').check();
    const before = await runId(page);
    await dropFile(page, 'sacct.txt', await readFile(SACCT, 'utf8'), 'text/plain');
    await page.locator('.fit-summary').waitFor();
    await page.waitForFunction(() => document.querySelector('.replay-banner')?.textContent.includes('keeps it under the key'));
    await waitForRun(page, before);
    const banner = page.locator('.replay-banner');
    assert.equal(await banner.getAttribute('data-jobs'), '13');
    assert.ok((await banner.textContent()).includes(key));
    // The replay's numbers are the CLI's.
    const shown = await metric(page, 'monthly_tco_usd.p50');
    for (const p of report.platforms) assert.equal(shown[p.name], p.monthly_tco_usd.p50, p.name);
    assert.equal(await settledHash(page), link);

    // The same link opened again in this browser (a reload starts the page afresh from
    // it) finds the jobs and replays them.
    await page.reload();
    await page.waitForFunction(() => document.querySelector('.replay-banner')?.dataset.replay === 'on');
    await page.waitForFunction(() => document.querySelector('section.results').dataset.state === 'done'
      && document.querySelector('[data-metric="monthly_tco_usd.p50"]'));
    await page.waitForTimeout(300);
    await page.waitForFunction(() => document.querySelector('section.results').dataset.state === 'done');
    const reopened = await metric(page, 'monthly_tco_usd.p50');
    for (const p of report.platforms) assert.equal(reopened[p.name], p.monthly_tco_usd.p50, p.name);
    assert.equal(await page.locator('.replay-banner').getAttribute('data-jobs'), '13');

    // Back to the fitted classes: the link no longer names the jobs.
    await page.getByRole('button', { name: 'Use the fitted classes instead' }).click();
    await page.waitForFunction(() => !location.hash.includes('&r='));
    assert.equal(await page.locator('.replay-banner').count(), 0);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('a replay link opened in a browser that does not keep the jobs shows the fitted classes and says so', async () => {
  const link = cli('history', SACCT, '--replay', '--link').trim();
  const fitted = JSON.parse(cli('eval', '--url', `#${link}`));
  const app = await openCalculator({ hash: `#${link}` });
  try {
    const { page } = app;
    const banner = page.locator('.replay-banner[data-replay="missing"]');
    await banner.waitFor();
    assert.match(await banner.textContent(), /not here: this browser does not keep it\. Showing the fitted job classes/);
    await page.waitForFunction(() => document.querySelector('section.results').dataset.state === 'done');
    // The fitted classes' numbers, as `gpucost eval` gives them for the same link.
    const shown = await metric(page, 'monthly_tco_usd.p50');
    for (const p of fitted.platforms) assert.equal(shown[p.name], p.monthly_tco_usd.p50, p.name);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
