import fs from 'node:fs';
import { createTestApp } from '../apps/server/test/helpers';
import { multipart } from '../apps/server/test/support/design-fixtures';
import { printDesignFile } from './support';

const designPath = await printDesignFile();
const app = await createTestApp();
const client = app.client();
const upload = multipart([
  { field: 'file', filename: 'design.png', content: fs.readFileSync(designPath), contentType: 'image/png' },
]);
const uploaded = await client.request({ method: 'POST', url: '/api/designs/upload', ...upload });
const designId = uploaded.json().id;
const ADJ = { scale: 90, rotation: 15, x: 10, y: -5, opacity: 85 };
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const r = await client.post('/api/mockups', {
    designId,
    productType: 'tshirt',
    templateId: 'tshirt-front',
    color: 'white',
    adjustments: { ...ADJ, rotation: 16 + i },
  });
  console.log('single', r.statusCode, (performance.now() - t).toFixed(0));
}
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const r = await client.post('/api/mockups/batch', {
    designId,
    productType: 'tshirt',
    templateIds: ['tshirt-front'],
    adjustments: ADJ,
  });
  console.log('batch', r.statusCode, (performance.now() - t).toFixed(0));
}
await app.close();
