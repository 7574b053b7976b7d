// Pipelines on the page: the pharma preset draws every one of its 14 stages with an arrow
// from each stage it comes after, and each platform's end-to-end hours and cost per run equal
// `gpucost eval`'s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliEval, metric, openPreset, runId, waitForRun } from './harness.mjs';

test('the pharma pipeline: its DAG on the page and its numbers as the CLI gives them', async () => {
  const report = cliEval('pharma-14-stage-pipeline');
  const stages = report.scenario.pipelines[0].stages;
  assert.equal(stages.length, 14);
  const app = await openPreset('pharma-14-stage-pipeline');
  try {
    const page = app.page;
    const drawn = await page.locator('section.pipeline g.dag-stage').evaluateAll((els) =>
      els.map((e) => e.dataset.stage));
    assert.deepEqual(drawn, stages.map((s) => s.name));
    const arrows = stages.reduce((n, s) => n + (s.after ?? []).length, 0);
    assert.equal(await page.locator('section.pipeline line.dag-edge').count(), arrows);
    for (const [key, of] of [
      ['pipelines.end_to_end_hours.p50.mean', (q) => q.end_to_end_hours.p50.mean],
      ['pipelines.end_to_end_hours.p95.mean', (q) => q.end_to_end_hours.p95.mean],
      ['pipelines.usd_per_pipeline_run.mean', (q) => q.usd_per_pipeline_run.mean],
      ['pipelines.runs_completed.mean', (q) => q.runs_completed.mean],
    ]) {
      const onPage = await metric(page, key);
      for (const p of report.platforms) {
        const want = of(p.pipelines[0]);
        const got = onPage[p.name];
        assert.ok(Math.abs(got - want) <= 1e-9 * Math.abs(want), `${key} ${p.name}: ${got} vs ${want}`);
      }
    }
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

for (const preset of ['karpenter-vs-autopilot-payback', 'commit-1y-vs-3y']) {
  test(`${preset}: the page's monthly TCO is the CLI's`, async () => {
    const report = cliEval(preset);
    const app = await openPreset(preset);
    try {
      const onPage = await metric(app.page, 'monthly_tco_usd.p50');
      for (const p of report.platforms) {
        const want = p.monthly_tco_usd.p50;
        assert.ok(Math.abs(onPage[p.name] - want) <= 1e-9 * want, `${p.name}: ${onPage[p.name]} vs ${want}`);
      }
      assert.deepEqual(app.problems, []);
    } finally {
      await app.close();
    }
  });
}

test('editing a pipeline: a stage added is drawn, a cycle is refused by name, undone it runs', async () => {
  const app = await openPreset('pharma-14-stage-pipeline');
  try {
    const page = app.page;
    const stages = page.locator('section.pipeline g.dag-stage');
    assert.equal(await stages.count(), 14);
    await page.locator('details.pipeline-editor > summary').first().click();
    await page.locator('#pipeline-0-add-stage').click();
    await page.waitForFunction(() => document.querySelectorAll('section.pipeline g.dag-stage').length === 15);
    // The first stage after the last: a cycle through the whole pipeline.
    await page.locator('#pipeline-0-stage-0-after').selectOption(['stage-15']);
    const error = page.locator('p.scenario-error');
    await page.waitForFunction(() => /cycle/.test(document.querySelector('p.scenario-error')?.textContent ?? ''));
    assert.match(await error.innerText(), /pipelines\.0\.stages\.\d+\.after: pipeline "drug-discovery" has a cycle: .*stage-15/);
    // Undone: it runs again, and the new stage has its row in the results' DAG.
    const before = await runId(page);
    await page.locator('#pipeline-0-stage-0-after').selectOption([]);
    await waitForRun(page, before, 300_000);
    assert.equal(await error.innerText(), '');
    const drawn = await stages.evaluateAll((els) => els.map((e) => e.dataset.stage));
    assert.equal(drawn.at(-1), 'stage-15');
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
