import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, SERVER_ROOT } from '../src/lib/paths';

/**
 * Writes the request side of a service's OpenAPI document into `assets/reference/` for the fakes' request checks
 * (integrations/openapi/request-validator.ts): every operation's parameters and request body, and the components
 * they reach; responses, examples and prose are left out. Run after the reference document changes:
 *   npx tsx apps/server/scripts/vendor-openapi.ts ../shared/reference/printful-v2-openapi.json printful-v2
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const DROP = new Set(['description', 'example', 'examples', 'summary', 'x-codeSamples', 'externalDocs', 'title']);
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

function strip(value: Json, names = false): Json {
  if (Array.isArray(value)) return value.map((v) => strip(v));
  if (value && typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const [k, v] of Object.entries(value)) {
      // Under `properties` the keys are field names: a field called "description" or "title" is kept.
      if (!names && DROP.has(k)) continue;
      out[k] = strip(v, !names && k === 'properties');
    }
    return out;
  }
  return value;
}

function refsIn(value: Json, found: Set<string>) {
  if (Array.isArray(value)) for (const v of value) refsIn(v, found);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') found.add(v);
      else refsIn(v, found);
    }
  }
}

const [source, name] = process.argv.slice(2);
if (!source || !name) throw new Error('usage: vendor-openapi.ts <openapi.json> <name>');
const doc = JSON.parse(readFileSync(path.resolve(process.cwd(), source), 'utf8')) as {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, { [key: string]: Json }>>;
  components: Record<string, Record<string, Json>>;
};

const paths: Record<string, Record<string, Json>> = {};
for (const [p, item] of Object.entries(doc.paths)) {
  const kept: Record<string, Json> = {};
  if (item.parameters) kept.parameters = strip(item.parameters as Json);
  for (const m of METHODS) {
    const op = item[m];
    if (!op) continue;
    kept[m] = strip({
      operationId: op.operationId ?? null,
      parameters: (op.parameters ?? []) as Json,
      ...(op.requestBody ? { requestBody: op.requestBody as Json } : {}),
    });
  }
  paths[p] = kept;
}

// The components the requests reach, followed through their own references.
const components: Record<string, Record<string, Json>> = {};
const seen = new Set<string>();
const queue = new Set<string>();
refsIn(paths as Json, queue);
while (queue.size > 0) {
  const [ref] = queue;
  queue.delete(ref as string);
  if (!ref || seen.has(ref)) continue;
  seen.add(ref);
  const [, , kind, key] = ref.split('/');
  const target = kind && key ? doc.components[kind]?.[key] : undefined;
  if (target === undefined) throw new Error(`unresolved ${ref}`);
  const stripped = strip(target);
  const group = components[kind as string] ?? {};
  group[key as string] = stripped;
  components[kind as string] = group;
  refsIn(stripped, queue);
}

const out = {
  openapi: doc.openapi,
  info: { title: doc.info.title, version: doc.info.version },
  'x-vendored-from': path.relative(REPO_ROOT, path.resolve(process.cwd(), source)),
  'x-vendored-part': 'request side only: parameters, request bodies and the components they reach',
  paths,
  components,
};
const file = path.join(SERVER_ROOT, 'assets/reference', `${name}.requests.json`);
writeFileSync(file, `${JSON.stringify(out, null, 1)}\n`);
console.log(`wrote ${path.relative(REPO_ROOT, file)} (${Object.keys(paths).length} paths, ${seen.size} components)`);
