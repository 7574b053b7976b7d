// Stories: a user drags a slider and the simulation starts at once, while the scenario editor
// stays as it is (no element of it is rebuilt); then the user switches presets and every
// platform's fieldset shows the new platform, though the fieldsets themselves were kept.
// (What these save in milliseconds is measured by `make bench`; here only the behaviour.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, openCalculator, runId, waitForRun } from './harness.mjs';

test('a slider input starts its run in its own task and rebuilds nothing in the editor', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    const run = await runId(page);
    const seen = await page.evaluate(() => {
      const editor = document.querySelector('section.scenario');
      const changed = { added: 0, removed: 0 };
      const count = (nodes) => [...nodes].filter((n) => n.nodeType === Node.ELEMENT_NODE).length;
      window.__editorChanges = changed;
      new MutationObserver((records) => {
        for (const r of records) {
          changed.added += count(r.addedNodes);
          changed.removed += count(r.removedNodes);
        }
      }).observe(editor, { subtree: true, childList: true });
      const slider = document.getElementById('utilization');
      const next = Number(document.querySelector('section.results').dataset.run) + 1;
      slider.value = String(Number(slider.value) + 7);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      // Still inside the task that dispatched the input: the run must already be posted.
      return {
        sentInTask: performance.getEntriesByName(`gpucost:sent:${next}`).length === 1,
        elements: editor.querySelectorAll('*').length,
      };
    });
    assert.ok(seen.sentInTask, 'the run was not started inside the input task');
    await waitForRun(page, run);
    const changed = await page.evaluate(() => window.__editorChanges);
    assert.deepEqual(changed, { added: 0, removed: 0 }, `editor elements replaced (of ${seen.elements})`);
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});

test('switching to a preset with as many platforms shows each new platform in the kept fieldsets', async () => {
  const app = await openCalculator();
  try {
    const { page } = app;
    // Two AWS platforms and one job class, then two GCP platforms and one job class: same
    // counts, so the fieldsets are kept and must follow the new platforms and class (names,
    // instance lists of the other cloud, values), and a message about text typed for the old
    // platform or class must not stay under the new one.
    const errors = () => page.locator('section.scenario .input-error').evaluateAll(
      (els) => els.map((e) => e.textContent).filter((t) => t));
    for (const [step, preset] of ['eks-vs-sagemaker-tco', 'autopilot-vs-standard'].entries()) {
      const scenario = JSON.parse(cli('scenario', '--preset', preset));
      if (step === 1) {
        // Out of range (0-100 FTE, 0-1,000,000 jobs a day): refused, with a message.
        await page.locator('fieldset.job-class').first().locator('details.all-settings summary').click();
        for (const [id, text] of [['platform-0-fte', '250'], ['class-0-setting-0', '5000000']]) {
          await page.fill(`#${id}`, text);
          await page.press(`#${id}`, 'Enter');
        }
        assert.equal((await errors()).length, 2, 'the typed text was not refused');
      }
      const run = await runId(page);
      await page.selectOption('#preset', preset);
      await waitForRun(page, run);
      assert.deepEqual(await errors(), [], `messages left after switching to ${preset}`);
      const classes = await page.locator('fieldset.job-class > legend').allTextContents();
      assert.deepEqual(classes, scenario.job_classes.map((c) => c.name));
      assert.equal(Number(await page.inputValue('#class-0-setting-0')), scenario.job_classes[0].arrivals.per_day);
      const shown = await page.evaluate(() => [...document.querySelectorAll('fieldset.platform')].map((f) => {
        const select = f.querySelector('select[id$="-instance"]');
        return {
          name: f.querySelector('legend').textContent,
          instance: select.options[select.selectedIndex]?.textContent ?? '',
          options: [...select.options].map((o) => o.textContent),
          fte: Number(f.querySelector('input[id$="-fte"]').value),
        };
      }));
      assert.equal(shown.length, scenario.platforms.length);
      scenario.platforms.forEach((p, i) => {
        assert.equal(shown[i].name, p.name);
        assert.ok(shown[i].instance.startsWith(`${p.node_pools[0].instance_type} — `), `${p.name}: ${shown[i].instance}`);
        // Only the platform's own cloud's instances are offered (names start with its family).
        const family = p.cloud === 'gcp' ? /^[a-z]+\d+[a-z]*-/ : /^[a-z]+\d+[a-z]*\./;
        assert.ok(shown[i].options.every((o) => family.test(o)), `${p.name}: ${shown[i].options[0]}`);
        assert.equal(shown[i].fte, p.ops_fte);
      });
    }
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
