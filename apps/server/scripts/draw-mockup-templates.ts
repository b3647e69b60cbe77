// `npm run templates:draw -w @podforge/server`: draws every mockup template and colour from its SVG and writes the
// files the repository ships (assets/mockup-templates/v<TEMPLATE_DRAWING_VERSION>/<type>/<template>-<colour>.jpg),
// so no server ever draws one while a seller waits. Run it after a drawing change and its version bump; files
// already there are kept (delete them to draw again).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { TEMPLATE_SETS } from '../src/lib/mockup-templates';
import { drawTemplate, SHIPPED_TEMPLATE_JPEG, shippedTemplateFile } from '../src/modules/mockups/mockup-render';

sharp.concurrency(os.availableParallelism());
let drawn = 0;
for (const set of Object.values(TEMPLATE_SETS)) {
  for (const template of set.templates) {
    for (const color of set.colors) {
      const file = shippedTemplateFile(set.productType, template.id, color.id);
      if (fs.existsSync(file)) continue;
      const started = performance.now();
      const jpeg = await drawTemplate(template, color).removeAlpha().jpeg(SHIPPED_TEMPLATE_JPEG).toBuffer();
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(`${file}.tmp`, jpeg);
      fs.renameSync(`${file}.tmp`, file);
      drawn += 1;
      console.log(
        `${path.relative(process.cwd(), file)}: ${(jpeg.length / 1024).toFixed(0)} KB in ${((performance.now() - started) / 1000).toFixed(1)} s (load ${os.loadavg()[0]?.toFixed(1)})`,
      );
    }
  }
}
console.log(`${drawn} template files drawn`);
