/**
 * `npm run lighthouse`: Lighthouse on the demo portal, as served by `npm start` (the built browser
 * files, compressed and cached), in the Chromium on this machine, mobile settings with Lighthouse's
 * simulated slow network and 4x CPU. Prints the four scores, the page's largest paint and layout
 * shift, and the findings that cost points. A benchmark: it reports, it does not fail.
 */
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { startDemoStack } from '../demo/stack.js';
import { CHROMIUM_ARGS, findChromium } from '../scripts/find-chromium.mjs';
import { median } from './stats.js';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const DEBUGGING_PORT = 9333;

export interface LighthouseScores {
  scores: Record<(typeof CATEGORIES)[number], number>;
  largestPaintMs: number;
  layoutShift: number;
  findings: string[];
}

export async function runLighthouse(runs = 1): Promise<LighthouseScores[]> {
  const demo = await startDemoStack({ port: 0, logger: () => undefined });
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${DEBUGGING_PORT}`],
  });
  const results: LighthouseScores[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const result = await lighthouse(`${demo.url}/`, {
        port: DEBUGGING_PORT,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
      });
      const lhr = result?.lhr;
      if (!lhr) throw new Error('Lighthouse returned no report');
      const scores = Object.fromEntries(
        CATEGORIES.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)]),
      ) as LighthouseScores['scores'];
      const findings = Object.values(lhr.audits)
        .filter(
          (audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative',
        )
        .filter((audit) => audit.scoreDisplayMode !== 'notApplicable' && audit.scoreDisplayMode !== 'manual')
        .map((audit) => `${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
      results.push({
        scores,
        largestPaintMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
        layoutShift: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
        findings,
      });
    }
  } finally {
    await browser.close();
    await demo.close();
  }
  return results;
}

export function printLighthouse(results: LighthouseScores[]): void {
  console.log(
    `Lighthouse on the demo portal (mobile, simulated slow 4G and 4x CPU; median of ${results.length})`,
  );
  for (const category of CATEGORIES) {
    console.log(`  ${category.padEnd(15)} ${median(results.map((result) => result.scores[category]))}`);
  }
  console.log(`  largest contentful paint ${median(results.map((r) => r.largestPaintMs)).toFixed(0)} ms`);
  console.log(`  cumulative layout shift  ${median(results.map((r) => r.layoutShift)).toFixed(3)}`);
  const findings = new Set(results.flatMap((result) => result.findings));
  if (findings.size) console.log(`  findings: ${[...findings].join('; ')}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printLighthouse(await runLighthouse(Number(process.argv[2] ?? 3)));
}
