import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { SERVER_ROOT } from '../../lib/paths';

/**
 * Amazon's own SP-API models (Swagger 2.0, `models/`, from amzn/selling-partner-api-models, Apache-2.0): the fake
 * matches each request to its operation and checks its path, query and body against the model's parameters and
 * definitions (Ajv, compiled the first time an operation is called), and its own answers against the response
 * schema, so neither the client nor the fake can drift from the published contract.
 */

const MODELS_DIR = path.join(SERVER_ROOT, 'src/integrations/amazon/models');

// ajv-formats is CommonJS with a default export; under ESM interop it may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;

type SwaggerParam = {
  name: string;
  in: 'path' | 'query' | 'body' | 'header';
  required?: boolean;
  type?: string;
  items?: Record<string, unknown>;
  schema?: Record<string, unknown>;
  [key: string]: unknown;
};
type SwaggerOperation = {
  operationId: string;
  parameters?: (SwaggerParam | { $ref: string })[];
  responses: Record<string, { schema?: Record<string, unknown> }>;
};
type SwaggerModel = {
  paths: Record<string, Record<string, SwaggerOperation | SwaggerParam[]>>;
  definitions?: Record<string, unknown>;
  parameters?: Record<string, SwaggerParam>;
};

export type MatchedOperation = {
  operationId: string;
  model: string;
  pathParams: Record<string, string>;
};

type Compiled = { params: ValidateFunction; body: ValidateFunction | null; responses: Map<string, ValidateFunction> };

const SCHEMA_KEYS = [
  'type',
  'items',
  'enum',
  'format',
  'minimum',
  'maximum',
  'maxItems',
  'minItems',
  'maxLength',
  'minLength',
  'pattern',
] as const;

export class SpApiModels {
  private readonly models = new Map<string, SwaggerModel>();
  private readonly routes: {
    model: string;
    method: string;
    regex: RegExp;
    names: string[];
    operation: SwaggerOperation;
    shared: SwaggerParam[];
  }[] = [];
  private readonly compiled = new Map<string, Compiled>();
  private readonly ajv: Ajv;

  constructor(files: string[]) {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    for (const file of files) {
      const model = JSON.parse(fs.readFileSync(path.join(MODELS_DIR, file), 'utf8')) as SwaggerModel;
      this.models.set(file, model);
      for (const [template, item] of Object.entries(model.paths)) {
        const names: string[] = [];
        const regex = new RegExp(
          `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name: string) => {
            names.push(name);
            return '([^/]+)';
          })}$`,
        );
        const shared = (Array.isArray(item.parameters) ? item.parameters : []) as SwaggerParam[];
        for (const [method, operation] of Object.entries(item)) {
          if (method === 'parameters' || Array.isArray(operation)) continue;
          this.routes.push({ model: file, method: method.toUpperCase(), regex, names, operation, shared });
        }
      }
    }
  }

  /** The operation a request is for, with its path parameters (decoded), or null when the models have none. */
  match(method: string, pathname: string): MatchedOperation | null {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const m = route.regex.exec(pathname);
      if (!m) continue;
      const pathParams: Record<string, string> = {};
      route.names.forEach((name, i) => {
        pathParams[name] = decodeURIComponent(m[i + 1] ?? '');
      });
      return { operationId: route.operation.operationId, model: route.model, pathParams };
    }
    return null;
  }

  private params(route: (typeof this.routes)[number]): SwaggerParam[] {
    const model = this.models.get(route.model);
    const resolve = (p: SwaggerParam | { $ref: string }): SwaggerParam =>
      '$ref' in p ? (model?.parameters?.[String(p.$ref).split('/').pop() ?? ''] as SwaggerParam) : p;
    const own = (route.operation.parameters ?? []).map(resolve);
    const names = new Set(own.map((p) => p.name));
    return [...own, ...route.shared.map(resolve).filter((p) => !names.has(p.name))];
  }

  private compile(operationId: string): Compiled {
    const cached = this.compiled.get(operationId);
    if (cached) return cached;
    const route = this.routes.find((r) => r.operation.operationId === operationId);
    if (!route) throw new Error(`No SP-API operation ${operationId}`);
    const definitions = this.models.get(route.model)?.definitions ?? {};
    const params = this.params(route);
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    let body: ValidateFunction | null = null;
    for (const p of params) {
      if (p.in === 'body') {
        if (p.schema) body = this.ajv.compile({ ...p.schema, definitions });
        continue;
      }
      if (p.in !== 'path' && p.in !== 'query') continue;
      const schema: Record<string, unknown> = {};
      for (const key of SCHEMA_KEYS) if (p[key] !== undefined) schema[key] = p[key];
      properties[p.name] = schema;
      if (p.required) required.push(p.name);
    }
    const responses = new Map<string, ValidateFunction>();
    for (const [status, response] of Object.entries(route.operation.responses)) {
      if (response.schema) responses.set(status, this.ajv.compile({ ...response.schema, definitions }));
    }
    const compiled = {
      params: this.ajv.compile({ type: 'object', properties, required }),
      body,
      responses,
    };
    this.compiled.set(operationId, compiled);
    return compiled;
  }

  /**
   * What is wrong with a request by the model, in Ajv's words ('' when nothing): path and query parameters typed as
   * the model types them (arrays are comma-separated, as Amazon's clients send them), and the body.
   */
  validateRequest(op: MatchedOperation, query: URLSearchParams, body: unknown): string {
    const route = this.routes.find((r) => r.operation.operationId === op.operationId);
    if (!route) return `unknown operation ${op.operationId}`;
    const compiled = this.compile(op.operationId);
    const values: Record<string, unknown> = {};
    for (const p of this.params(route)) {
      const raw = p.in === 'path' ? op.pathParams[p.name] : p.in === 'query' ? query.get(p.name) : undefined;
      if (raw === undefined || raw === null) continue;
      values[p.name] = coerce(p, raw);
    }
    const problems: string[] = [];
    if (!compiled.params(values)) problems.push(describe(compiled.params.errors, 'parameters'));
    if (compiled.body) {
      if (body === undefined) problems.push('the request body is missing');
      else if (!compiled.body(body)) problems.push(describe(compiled.body.errors, 'body'));
    }
    return problems.join('; ');
  }

  /** Whether the fake's own answer fits the model's response schema ('' when it does, or the model has none). */
  validateResponse(operationId: string, status: number, body: unknown): string {
    const validate = this.compile(operationId).responses.get(String(status));
    if (!validate || validate(body)) return '';
    return describe(validate.errors, 'response');
  }
}

function coerce(p: SwaggerParam, raw: string): unknown {
  const scalar = (type: unknown, value: string): unknown => {
    if (type === 'integer' || type === 'number') return value.trim() === '' ? value : Number(value);
    if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
    return value;
  };
  if (p.type === 'array') return raw.split(',').map((v) => scalar(p.items?.type, v));
  return scalar(p.type, raw);
}

export function describe(errors: ErrorObject[] | null | undefined, where: string): string {
  return (errors ?? [])
    .slice(0, 5)
    .map((e) => `${where}${e.instancePath || ''} ${e.message ?? 'is invalid'}`.trim())
    .join('; ');
}
