import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { SERVER_ROOT } from '../../lib/paths';

/**
 * Checks a request against a service's own OpenAPI 3.0 document, the way the service's gateway would: path
 * parameters, query, declared headers and the request body against the operation's schema. The fakes answer a
 * violation in the service's error shape (Printful 400 `{code, result, error}`, Etsy 400 `{error}`).
 *
 * The documents are the request side vendored in `apps/server/assets/reference/` (scripts/vendor-openapi.ts).
 * OpenAPI 3.0 is not JSON Schema: `nullable` becomes a `null` type, `discriminator` is left to the `oneOf` it
 * annotates, `readOnly` fields are not required in a request, and the document's own formats (int64, float,
 * HateoasLink...) are accepted as named. Each operation's schema is compiled once, on its first request.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };
type Parameter = {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Obj;
  style?: string;
  explode?: boolean;
};
type Operation = { operationId?: string | null; parameters?: Json[]; requestBody?: Json };
type Document = { paths: Record<string, Record<string, Json>>; components?: Record<string, Record<string, Json>> };

export type RequestToCheck = {
  method: string;
  /** The path as received (percent-encoded segments are decoded here). */
  pathname: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  /** The body as parsed: JSON, or form fields (URLSearchParams) for a form-encoded body; undefined when none. */
  body?: unknown;
  contentType?: string;
};

export type RequestProblem = { operationId: string; errors: string[] };

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** OpenAPI 3.0 schema to JSON Schema (draft-07, as Ajv reads it). */
export function toJsonSchema(schema: Json, inRequest = true): Json {
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s, inRequest));
  if (!isObj(schema)) return schema;
  const out: Obj = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'nullable' || k === 'discriminator' || k === 'xml' || k === 'deprecated') continue;
    if (k === 'properties' && isObj(v)) {
      out.properties = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, toJsonSchema(s, inRequest)]));
    } else if (k === '$ref' && typeof v === 'string') {
      out.$ref = v.startsWith('#/') ? `openapi${v}` : v;
    } else {
      out[k] = toJsonSchema(v, inRequest);
    }
  }
  // A readOnly field is the service's to set: a request need not send it.
  if (inRequest && Array.isArray(out.required) && isObj(out.properties)) {
    const props = out.properties;
    out.required = out.required.filter((name) => {
      const prop = props[String(name)];
      return !(isObj(prop) && prop.readOnly === true);
    });
    if (out.required.length === 0) delete out.required;
  }
  if (schema.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (out.type === undefined && out.$ref !== undefined) return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

/** A query or path value as its schema types it ("12" for an integer is 12; a comma list for an unexploded array). */
function coerce(values: string[], schema: Obj | undefined, explode: boolean): Json {
  const types = new Set<string>();
  const collect = (s: Json | undefined) => {
    if (!isObj(s)) return;
    if (typeof s.type === 'string') types.add(s.type);
    for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
      const list = s[key];
      if (Array.isArray(list)) for (const sub of list) collect(sub);
    }
  };
  collect(schema);
  const one = (raw: string): Json => {
    if ((types.has('integer') || types.has('number')) && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
    if (types.has('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
    return raw;
  };
  if (types.has('array')) {
    const items = isObj(schema) ? schema.items : undefined;
    const list = explode ? values : values.flatMap((v) => v.split(','));
    return list.map((v) => (isObj(items) ? (coerce([v], items, true) as Json) : v));
  }
  return one(values[values.length - 1] ?? '');
}

/** Form fields as the body's schema types them (Etsy's form-encoded writes: numbers, booleans, repeated arrays). */
function formBody(form: URLSearchParams, schema: Json, resolve: (s: Json) => Json): Obj {
  const s = resolve(schema);
  const props = isObj(s) && isObj(s.properties) ? s.properties : {};
  const out: Obj = {};
  for (const key of new Set(form.keys())) {
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    const prop = resolve(props[name] ?? null);
    const values = form.getAll(key);
    // A list sent as one field is comma-separated (Etsy: "A comma-separated list of tag strings").
    out[name] = coerce(values, isObj(prop) ? prop : undefined, values.length > 1);
  }
  return out;
}

const message = (e: ErrorObject) => {
  const where = e.instancePath.replace(/^\/(path|query|header|body)/, '$1').replace(/\//g, '.') || 'request';
  if (e.keyword === 'required')
    return `${where}: ${String((e.params as { missingProperty: string }).missingProperty)} is required`;
  if (e.keyword === 'enum') {
    return `${where} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')}`;
  }
  return `${where} ${e.message ?? 'is not valid'}`;
};

export class OpenApiRequestValidator {
  private readonly ajv: Ajv;
  private readonly routes: { template: string; regex: RegExp; names: string[]; params: number }[];
  private readonly compiled = new Map<string, ValidateFunction>();

  /**
   * `contentTypes: 'strict'` refuses a body whose Content-Type the operation does not declare; 'lenient' checks it
   * against the operation's first declared body instead (a service known to take JSON and forms alike).
   */
  constructor(
    private readonly doc: Document,
    private readonly options: { contentTypes: 'strict' | 'lenient' } = { contentTypes: 'strict' },
  ) {
    this.ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false, logger: false });
    addFormats(this.ajv);
    // The document's own formats name a representation (int64, float...) and constrain nothing further here.
    for (const f of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password', 'HateoasLink']) {
      this.ajv.addFormat(f, true);
    }
    this.ajv.addSchema({ components: toJsonSchema((doc.components ?? {}) as Json) } as object, 'openapi');
    this.routes = Object.keys(doc.paths)
      .map((template) => {
        const names: string[] = [];
        const source = template
          .split('/')
          .map((segment) =>
            segment.replace(/\{([^}]+)\}|[^{}]+/g, (part, name: string | undefined) => {
              if (name) {
                names.push(name);
                return '([^/]+)';
              }
              return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            }),
          )
          .join('/');
        return { template, regex: new RegExp(`^${source}$`), names, params: names.length };
      })
      // A literal segment wins over a parameter (`/orders/estimate` before `/orders/{id}`).
      .sort((a, b) => a.params - b.params);
  }

  static fromAsset(file: string, options?: { contentTypes: 'strict' | 'lenient' }): OpenApiRequestValidator {
    const text = readFileSync(path.join(SERVER_ROOT, 'assets/reference', file), 'utf8');
    return new OpenApiRequestValidator(JSON.parse(text) as Document, options);
  }

  private resolve = (value: Json): Json => {
    let v = value;
    for (let i = 0; i < 20 && isObj(v) && typeof v.$ref === 'string'; i++) {
      const [, , kind, key] = v.$ref.split('/');
      v = (kind && key ? this.doc.components?.[kind]?.[key] : undefined) ?? null;
    }
    return v;
  };

  /** The operation a request is for, with its path parameters; null when the document has none (not checked). */
  private match(method: string, pathname: string) {
    for (const route of this.routes) {
      const m = route.regex.exec(pathname);
      const op = m ? this.doc.paths[route.template]?.[method.toLowerCase()] : undefined;
      if (!m || !isObj(op)) continue;
      const item = this.doc.paths[route.template] ?? {};
      const values = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')]));
      return { key: `${method.toUpperCase()} ${route.template}`, item, op: op as Operation, values };
    }
    return null;
  }

  /** The operationId the document has for this method and path, or null (such a request would not be checked). */
  operationOf(method: string, pathname: string): string | null {
    const found = this.match(method, pathname);
    return found ? (found.op.operationId ?? found.key) : null;
  }

  /** Path-level and operation-level parameters, the operation's winning by name and place. */
  private parameters(item: Record<string, Json>, op: Operation): Parameter[] {
    const all = [...(Array.isArray(item.parameters) ? item.parameters : []), ...(op.parameters ?? [])]
      .map(this.resolve)
      .filter(isObj) as unknown as Parameter[];
    const byKey = new Map(all.map((p) => [`${p.in}:${p.name}`, p]));
    return [...byKey.values()];
  }

  private bodySchema(op: Operation, contentType: string): { schema: Json; required: boolean; form: boolean } | null {
    const body = this.resolve(op.requestBody ?? null);
    if (!isObj(body) || !isObj(body.content)) return null;
    const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    const content = body.content;
    const declared = Object.values(content)[0];
    const media =
      content[type] ??
      (type ? undefined : content['application/json']) ??
      (this.options.contentTypes === 'lenient' ? declared : undefined);
    return {
      schema: isObj(media) ? (media.schema ?? {}) : false,
      required: body.required === true,
      form: type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data',
    };
  }

  private validator(key: string, params: Parameter[], body: { schema: Json; required: boolean } | null) {
    const cacheKey = `${key} ${JSON.stringify(body?.schema === false)}`;
    const known = this.compiled.get(cacheKey);
    if (known) return known;
    const group = (place: Parameter['in']) => {
      const list = params.filter((p) => p.in === place);
      const required = list
        .filter((p) => p.required || place === 'path')
        .map((p) => (place === 'header' ? p.name.toLowerCase() : p.name));
      return {
        type: 'object',
        properties: Object.fromEntries(
          list.map((p) => [place === 'header' ? p.name.toLowerCase() : p.name, toJsonSchema((p.schema ?? {}) as Json)]),
        ),
        ...(required.length ? { required } : {}),
      };
    };
    const schema = {
      type: 'object',
      properties: {
        path: group('path'),
        query: group('query'),
        header: group('header'),
        ...(body ? { body: toJsonSchema(body.schema) } : {}),
      },
      ...(body?.required ? { required: ['body'] } : {}),
    };
    const compiled = this.ajv.compile(schema);
    this.compiled.set(cacheKey, compiled);
    return compiled;
  }

  /** The violations of a request, or null when it is valid (or the document has no such operation). */
  check(request: RequestToCheck): RequestProblem | null {
    const found = this.match(request.method, request.pathname);
    if (!found) return null;
    const params = this.parameters(found.item, found.op);
    const contentType = request.contentType ?? '';
    const hasBody = request.body !== undefined;
    const body = this.bodySchema(found.op, hasBody ? contentType : '');
    const operationId = found.op.operationId ?? found.key;
    if (hasBody && body?.schema === false) {
      return { operationId, errors: [`Content-Type ${contentType || '(none)'} is not accepted here`] };
    }
    const value = (place: 'query' | 'header'): Obj => {
      const out: Obj = {};
      for (const p of params.filter((x) => x.in === place)) {
        const raw =
          place === 'query'
            ? request.query.getAll(p.name).concat(request.query.getAll(`${p.name}[]`))
            : [request.headers[p.name.toLowerCase()]].flat().filter((v): v is string => typeof v === 'string');
        if (raw.length === 0) continue;
        out[place === 'header' ? p.name.toLowerCase() : p.name] = coerce(
          raw,
          p.schema,
          p.explode ?? p.style !== 'simple',
        );
      }
      return out;
    };
    const path: Obj = {};
    for (const p of params.filter((x) => x.in === 'path')) {
      const raw = found.values[p.name];
      if (raw !== undefined) path[p.name] = coerce([raw], p.schema, false);
    }
    const instance: Obj = { path, query: value('query'), header: value('header') };
    if (hasBody && body) {
      instance.body =
        request.body instanceof URLSearchParams
          ? formBody(request.body, body.schema, this.resolve)
          : (request.body as Json);
    }
    const validate = this.validator(found.key, params, body && body.schema !== false ? body : null);
    if (validate(instance)) return null;
    const errors = [...new Set((validate.errors ?? []).map(message))];
    return { operationId, errors };
  }
}
