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
    // Two AWS platforms, then two GCP platforms: same count, so the fieldsets are kept and
    // must follow the new platforms (names, instance lists of the other cloud, values).
    for (const preset of ['eks-vs-sagemaker-tco', 'autopilot-vs-standard']) {
      const scenario = JSON.parse(cli('scenario', '--preset', preset));
      const run = await runId(page);
      await page.selectOption('#preset', preset);
      await waitForRun(page, run);
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
        assert.ok(shown[i].instance.startsWith(`${p.instance_type} — `), `${p.name}: ${shown[i].instance}`);
        // Only the platform's own cloud's instances are offered (names start with its family).
        const family = p.cloud === 'gcp' ? /^[a-z]\d-/ : /^[a-z]+\d+[a-z]*\./;
        assert.ok(shown[i].options.every((o) => family.test(o)), `${p.name}: ${shown[i].options[0]}`);
        assert.equal(shown[i].fte, p.ops_fte);
      });
    }
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
