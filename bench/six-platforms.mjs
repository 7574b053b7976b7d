// Six platforms on one page: the h100-three-clouds preset (SageMaker and EKS on p5, Azure ML
// and AKS on ND H100 v5, GKE Standard and Autopilot on A3; 8-GPU fine-tunes and 32-GPU runs
// for 30 days, 200 replications), opened from its link, against the default preset's three
// platforms measured in turn on the same machine: 30 inputs on the utilization slider each, and
// a drag. Timings here are noisy, so the row compares the two pages' medians (a ratio) beside
// the absolute figures. Run alone: `node bench/six-platforms.mjs [gpucost]` prints its row.
import { execFileSync } from 'node:child_process';
import { measureLink } from './page-latency.mjs';

const fmt = (n, d = 1) => Number(n).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/** One preset's page: latency medians and p95s over 30 utilization inputs, and its drag. */
async function page(bin, preset, distDir) {
  const link = execFileSync(bin, ['link', '--preset', preset]).toString().trim();
  return measureLink(link, 'utilization', 30, distDir);
}

/** The row of bench/RESULTS.md for six platforms: [area, target, measured, pass]. */
export async function sixPlatformsRow(bin, distDir = process.env.DIST ?? 'dist') {
  const six = await page(bin, 'h100-three-clouds', distDir);
  const three = await page(bin, 'batch-vs-eks-spot', distDir);
  const [l, d] = [six.latency, three.latency];
  const ratio = (key) => l[key] / d[key];
  const measured = `six platforms: estimate p95 ${fmt(l.estimateP95)} ms, coarse median ${fmt(l.coarseMedian)} (p95 ${fmt(l.coarseP95)}), full median ${fmt(l.fullMedian)} (p95 ${fmt(l.fullP95)}); the default page in turn: estimate p95 ${fmt(d.estimateP95)}, coarse median ${fmt(d.coarseMedian)} (p95 ${fmt(d.coarseP95)}), full median ${fmt(d.fullMedian)} (p95 ${fmt(d.fullP95)}); ratios: coarse ×${fmt(ratio('coarseMedian'), 2)}, full ×${fmt(ratio('fullMedian'), 2)}, estimate ×${fmt(ratio('estimateP95'), 2)}; dragging: ${six.dragging.longTasks} long tasks, ${six.dragging.olderRunsFinished} older runs finished of ${six.dragging.inputs}`;
  const pass = ratio('coarseMedian') <= 1.5 && ratio('fullMedian') <= 1.5 && ratio('estimateP95') <= 2
    && six.dragging.longTasks === 0 && six.dragging.olderRunsFinished === 0;
  return [
    'Six platforms (h100-three-clouds)',
    'the default page\'s targets hold with six platforms: coarse and full medians within 1.5 × the default page\'s (three platforms) measured in turn, the instant estimate within 2 ×; no main-thread task over 50 ms; a newer input cancels the older run',
    measured,
    pass,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await sixPlatformsRow(process.argv[2] ?? 'target/release/gpucost'));
}
