// Regenerates the README's screenshots (`make screenshots`): the release build at desktop and
// tablet and phone widths (1440, 768 and 390 px), after the default preset's run has finished.
import { openCalculator } from './harness.mjs';

const SHOTS = [
  { file: 'docs/screenshots/desktop.png', width: 1440, height: 900 },
  { file: 'docs/screenshots/tablet.png', width: 768, height: 1024 },
  { file: 'docs/screenshots/phone.png', width: 390, height: 844 },
];

for (const shot of SHOTS) {
  const app = await openCalculator({ width: shot.width, height: shot.height });
  // Wait for the tornado and the break-evens, which follow the headline run.
  await app.page.waitForSelector('[data-metric^="break_even."]', { timeout: 120_000 });
  await app.page.screenshot({ path: shot.file, fullPage: true });
  if (app.problems.length > 0) {
    console.error(app.problems.join('\n'));
    process.exitCode = 1;
  }
  await app.close();
  console.log(`wrote ${shot.file}`);
}
