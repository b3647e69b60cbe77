import { Ajv2019, type ErrorObject, type ValidateFunction } from 'ajv/dist/2019.js';
import addFormatsModule from 'ajv-formats';

/**
 * Amazon's product type schemas: JSON Schema 2019-09 under Amazon's meta-schema
 * (`https://schemas.amazon.com/selling-partners/definitions/product-types/meta-schema/v1`), which adds keywords of
 * its own. Amazon's guide validates listings with a JSON Schema validator before sending them; both Podforge (the
 * seller sees which attribute is missing) and the fake (which refuses what Amazon refuses) use this one.
 */

export const AMAZON_META_SCHEMA_ID =
  'https://schemas.amazon.com/selling-partners/definitions/product-types/meta-schema/v1';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2019,
) => Ajv2019;

/** One Ajv for product type schemas: Amazon's annotation keywords known, `maxUtf8ByteLength` enforced. */
export function productTypeAjv(): Ajv2019 {
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  // Annotations of Amazon's meta-schema (they change nothing about validity).
  for (const keyword of ['editable', 'hidden', 'enumNames', 'selectors', 'minUniqueItems', 'maxUniqueItems'])
    ajv.addKeyword({ keyword });
  ajv.addKeyword({
    keyword: 'maxUtf8ByteLength',
    type: 'string',
    schemaType: 'number',
    validate: (max: number, data: string) => Buffer.byteLength(data, 'utf8') <= max,
  });
  return ajv;
}

export type AttributeProblem = { attribute: string; message: string };

/**
 * What a validator found, one entry per attribute: a missing one by its name, else the top-level attribute whose
 * value is wrong. The `if/then` branches Amazon uses for conditional requirements answer as `required` too.
 */
export function attributeProblems(errors: ErrorObject[] | null | undefined): AttributeProblem[] {
  const out = new Map<string, string>();
  for (const e of errors ?? []) {
    if (e.keyword === 'if') continue;
    if (e.keyword === 'required' && e.instancePath === '') {
      const name = String((e.params as { missingProperty?: string }).missingProperty);
      if (!out.has(name)) out.set(name, 'is required but not supplied');
      continue;
    }
    const name = e.instancePath.split('/')[1];
    if (!name || out.has(name)) continue;
    out.set(name, `${e.instancePath.slice(name.length + 2) || 'value'} ${e.message ?? 'is invalid'}`);
  }
  return [...out.entries()].map(([attribute, message]) => ({ attribute, message }));
}

/** Compiles a product type's schema (its meta-schema is Amazon's; Ajv is told not to look it up). */
export function compileProductType(ajv: Ajv2019, schema: Record<string, unknown>): ValidateFunction {
  const id = typeof schema.$id === 'string' ? schema.$id : null;
  if (id) {
    const existing = ajv.getSchema(id);
    if (existing) ajv.removeSchema(id);
  }
  return ajv.compile(schema);
}
