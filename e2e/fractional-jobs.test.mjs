// Stories: a team whose jobs use half a GPU each (as their cluster's history says) sets the
// job class to 0.5 GPU, is told that platforms not sharing GPUs give each job a whole one,
// turns time-slicing on for EKS, and reads the costs `gpucost eval` computes for the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, metric, openCalculator, runId, waitForRun } from './harness.mjs';

const HALF = 'job_classes.0.gpus_per_job=0.5';
const SLICED = 'platforms.1.gpu_sharing={"mode":"time_slicing","context_switch_loss":0.05}';

function cliTco(...sets) {
  const args = ['eval'];
  for (const s of sets) args.push('--set', s);
  return Object.fromEntries(JSON.parse(cli(...args)).platforms.map((p) => [p.name, p.monthly_tco_usd.p50]));
}

function assertSame(page, cli) {
  for (const [name, value] of Object.entries(cli)) {
    assert.ok(Math.abs(page[name] - value) <= 1e-9 * value, `${name}: page ${page[name]}, cli ${value}`);
  }
}

test('half-GPU jobs: a whole GPU each where GPUs are not shared, packed two to a GPU on time-sliced EKS, as gpucost eval computes', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const fieldset = page.locator('fieldset.job-class').first();
    await fieldset.locator('details.all-settings > summary').click();
    let run = await runId(page);
    const gpus = fieldset.getByLabel('GPUs per job', { exact: true });
    await gpus.fill('0.5');
    await gpus.press('Enter');
    await waitForRun(page, run, 300_000);
    const notices = async () => (await fieldset.locator('p.notice').allTextContents()).join(' | ');
    assert.match(await notices(), /asks for 0\.5 of a GPU: a job holds a whole GPU on AWS Batch on-demand, EKS spot \(/);
    assert.match(await notices(), /a job holds a whole node on SageMaker \(/);
    assertSame(await metric(page, 'monthly_tco_usd.p50'), cliTco(HALF));
    const whole = await metric(page, 'monthly_tco_usd.p50');

    // Time-slicing on EKS: the setting shows now that a class asks for a fraction.
    const platform = page.locator('fieldset.platform').nth(1);
    await platform.locator('details.all-settings > summary').click();
    run = await runId(page);
    await page.locator('#platform-1-gpu-sharing').selectOption('time_slicing');
    await waitForRun(page, run, 300_000);
    assert.match(await notices(), /a job holds a whole GPU on AWS Batch on-demand \(/);
    const sliced = await metric(page, 'monthly_tco_usd.p50');
    assertSame(sliced, cliTco(HALF, SLICED));
    // Packing two jobs to a GPU never costs EKS more; the others do not move.
    assert.ok(sliced['EKS spot'] <= whole['EKS spot'], JSON.stringify({ sliced, whole }));
    assert.equal(sliced['AWS Batch on-demand'], whole['AWS Batch on-demand']);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
