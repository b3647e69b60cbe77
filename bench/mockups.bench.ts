// Mockup rendering: our sharp renderer against ImageMagick doing the same composite on the same inputs, a
// 10-colour batch through the real API, and the 4500x5400 print file. Prints figures and ratios; not a test.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import {
  composeMockup,
  findTemplate,
  mockupPlacement,
  prepareDesignLayer,
  renderPrintFile,
  TemplateStore,
} from '../apps/server/src/modules/mockups/mockup-render';
import { insertDesign } from '../apps/server/test/fixtures/designs';
import { createTestApp } from '../apps/server/test/helpers';

const CONVERT = '/usr/bin/convert';
const RUNS = 20;
const ADJ = { scale: 90, rotation: 15, x: 10, y: -5, opacity: 85 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const p95 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)] ?? 0;
const ms = (x: number) => `${x.toFixed(0)} ms`;
async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

function ensureImageMagick() {
  if (fs.existsSync(CONVERT)) return;
  console.log('Installing Debian imagemagick (needed for the comparison)...');
  execFileSync('apt-get', ['install', '-y', '-q', 'imagemagick'], { stdio: 'inherit' });
}

ensureImageMagick();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-bench-'));
try {
  const store = new TemplateStore(path.join(work, 'templates'));
  const template = findTemplate('tshirt', 'tshirt-front');
  if (!template) throw new Error('no template');
  const cold = await timeIt(() => store.png('tshirt', template, 'white', 'full'));
  const templatePath = path.join(work, 'template.png');
  fs.writeFileSync(templatePath, await store.png('tshirt', template, 'white', 'full'));
  const design = await sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1800" height="1800">
      <rect width="1800" height="1800" fill="#1e6fd9"/><circle cx="600" cy="900" r="500" fill="#f2c12e"/>
      <path d="M1000 1500 L1700 600 L1700 1700 Z" fill="#d7263d"/></svg>`),
  )
    .png()
    .toBuffer();
  const designPath = path.join(work, 'design.png');
  fs.writeFileSync(designPath, design);
  const designSize = { width: 1800, height: 1800 };
  const placement = mockupPlacement('tshirt', designSize, ADJ);

  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    `Machine: ${os.availableParallelism()} cores, load average ${load} (other work on the machine slows every figure)`,
  );
  console.log(`Template render from SVG (once per template and colour, then cached): ${ms(cold)}`);
  console.log(`Inputs: template 2000x2500, design 1800x1800, adjustments ${JSON.stringify(ADJ)}\n`);

  // Ours: resize, rotate, opacity, clip, composite, PNG (plus the 512 px preview), template pixels cached.
  const base = await store.raw('tshirt', template, 'white');
  const renderOnce = async () => composeMockup(base, await prepareDesignLayer(design, placement));
  await renderOnce();
  const ours: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) ours.push(await timeIt(renderOnce));
  const cpu = process.cpuUsage(cpu0);
  // CPU time is what other load on the machine does not inflate (all of sharp's threads count).
  const oursCpuMs = (cpu.user + cpu.system) / 1000 / RUNS;
  const peakAfterSingle = process.resourceUsage().maxRSS / 1024;
  // Ours again, decoding the template PNG from disk every time as ImageMagick must.
  const oursCold: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    oursCold.push(
      await timeIt(async () => {
        const { data, info } = await sharp(templatePath).removeAlpha().raw().toBuffer({ resolveWithObject: true });
        await composeMockup(
          { data, width: info.width, height: info.height, channels: 3 },
          await prepareDesignLayer(design, placement),
        );
      }),
    );
  }
  const cores = os.availableParallelism();
  const throughputRenders = RUNS * 2;
  let started = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: cores }, async () => {
      while (started < throughputRenders) {
        started += 1;
        await renderOnce();
      }
    }),
  );
  const perSecond = throughputRenders / ((performance.now() - t0) / 1000);

  // ImageMagick: the same resize, rotate, opacity and composite at the same place, same PNG compression.
  const left = Math.round(placement.centerX - placement.bounds.width / 2);
  const top = Math.round(placement.centerY - placement.bounds.height / 2);
  const imArgs = [
    templatePath,
    '(',
    designPath,
    '-resize',
    `${Math.round(placement.width)}x${Math.round(placement.height)}!`,
    '-background',
    'none',
    '-rotate',
    String(ADJ.rotation),
    '-channel',
    'A',
    '-evaluate',
    'multiply',
    String(ADJ.opacity / 100),
    '+channel',
    ')',
    '-geometry',
    `+${left}+${top}`,
    '-composite',
    '-define',
    'png:compression-level=2',
    path.join(work, 'im.png'),
  ];
  const im: number[] = [];
  let imPeakKb = 0;
  const imCpu: number[] = [];
  const hasTime = fs.existsSync('/usr/bin/time');
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const r = hasTime
      ? spawnSync('/usr/bin/time', ['-f', '%M %U %S', CONVERT, ...imArgs], { encoding: 'utf8' })
      : spawnSync(CONVERT, imArgs, { encoding: 'utf8' });
    im.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`ImageMagick failed: ${r.stderr}`);
    if (hasTime) {
      const [peak, user, system] = (r.stderr.trim().split('\n').pop() ?? '').split(' ').map(Number);
      imPeakKb = Math.max(imPeakKb, peak || 0);
      imCpu.push(((user ?? 0) + (system ?? 0)) * 1000);
    }
  }

  console.log(`One 2000x2500 mockup, ${RUNS} renders each:`);
  console.log(`  ours (template cached)        median ${ms(median(ours))}  p95 ${ms(p95(ours))}`);
  console.log(`  ours (template decoded each)  median ${ms(median(oursCold))}  p95 ${ms(p95(oursCold))}`);
  console.log(`  ImageMagick ${CONVERT}   median ${ms(median(im))}  p95 ${ms(p95(im))}`);
  console.log(
    `  ratio ImageMagick / ours: ${(median(im) / median(ours)).toFixed(1)}x (cached), ${(median(im) / median(oursCold)).toFixed(1)}x (decoded each)`,
  );
  if (imCpu.length) {
    const imCpuMs = imCpu.reduce((a, b) => a + b, 0) / imCpu.length;
    console.log(
      `  CPU time per render: ours ${ms(oursCpuMs)}, ImageMagick ${ms(imCpuMs)} -> ratio ${(imCpuMs / oursCpuMs).toFixed(1)}x`,
    );
  }
  console.log(`  ours with ${cores} cores: ${perSecond.toFixed(1)} renders/s`);
  console.log(
    `  target: median under 150 ms -> ${median(ours) < 150 ? 'met' : 'NOT met'}; 5x faster -> ${median(im) / median(ours) >= 5 ? 'met' : 'NOT met'}`,
  );

  // A 10-colour batch through the real API (design row, storage, mockups rows), templates already rendered.
  const app = await createTestApp();
  try {
    const client = app.client();
    const ws = await client.workspaceId(app.deps.db);
    const { id } = await insertDesign(app.deps, ws, design);
    const body = { designId: id, productType: 'tshirt', templateIds: ['tshirt-front'], adjustments: ADJ };
    const firstBatch = await timeIt(() => client.post('/api/mockups/batch', body));
    const batches: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const res = await client.post('/api/mockups/batch', body);
      batches.push(performance.now() - t);
      if (res.statusCode !== 200 || res.json().total !== 10) throw new Error(`batch answered ${res.statusCode}`);
    }
    console.log(
      `\n10-colour batch via POST /api/mockups/batch: first (renders 10 templates from SVG) ${ms(firstBatch)}, then median ${ms(median(batches))} -> target under 2 s ${median(batches) < 2000 ? 'met' : 'NOT met'}`,
    );
  } finally {
    await app.close();
  }

  const printTimes: number[] = [];
  let printSize = '';
  for (let i = 0; i < 5; i++) {
    printTimes.push(
      await timeIt(async () => {
        const out = await renderPrintFile('tshirt', design, designSize, ADJ);
        printSize = `${out.width}x${out.height}`;
      }),
    );
  }
  console.log(`Print file ${printSize} (transparent PNG): median ${ms(median(printTimes))} over 5`);
  console.log(
    `Peak memory (RSS): ours ${peakAfterSingle.toFixed(0)} MB after the single renders, ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB for the whole bench (template SVG renders, batch, print file)${imPeakKb ? `, ImageMagick ${(imPeakKb / 1024).toFixed(0)} MB per run` : ''}`,
  );
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
