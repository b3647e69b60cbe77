import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  buildSchema,
  coerceInputValue,
  type DocumentNode,
  FieldsOnCorrectTypeRule,
  GraphQLEnumType,
  GraphQLError,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLList,
  GraphQLScalarType,
  type GraphQLSchema,
  isInputType,
  isNonNullType,
  Kind,
  KnownArgumentNamesRule,
  NoUndefinedVariablesRule,
  NoUnusedVariablesRule,
  type OperationDefinitionNode,
  ProvidedRequiredArgumentsRule,
  parse,
  ScalarLeafsRule,
  specifiedRules,
  TypeInfo,
  typeFromAST,
  type ValidationRule,
  ValuesOfCorrectTypeRule,
  VariablesInAllowedPositionRule,
  validate,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { DEFAULT_SHOPIFY_API_VERSION } from './api-versions';

/**
 * The fake Shopify's GraphQL front: Shopify's own Admin schema (the reference SDL of the version we pin, shipped
 * gzipped in assets/shopify), built once per process, and what Shopify answers to a document or variables it
 * refuses. Shopify's GraphQL server is graphql-ruby: a refused document answers HTTP 200 with top-level `errors`
 * whose messages and `extensions.code` are graphql-ruby's static validation ones (undefinedField,
 * selectionMismatch, missingRequiredArguments, argumentNotAccepted, variableNotUsed, variableMismatch, ...); refused
 * variables answer "Variable $x of type T was provided invalid value for path (explanation)" with the value and its
 * problems. The fake then executes the document with graphql-js on the same schema, so only the fields asked for
 * come back (fake-server.ts gives the resolvers).
 */

let schema: GraphQLSchema | null = null;

/** The Admin schema of `DEFAULT_SHOPIFY_API_VERSION`, built on first use (about half a second) and kept. */
export function shopifyAdminSchema(): GraphQLSchema {
  if (schema) return schema;
  const file = path.join(serverRoot(), 'assets/shopify', `admin-${DEFAULT_SHOPIFY_API_VERSION}.graphql.gz`);
  schema = buildSchema(gunzipSync(readFileSync(file)).toString('utf8'), { assumeValidSDL: true });
  return schema;
}

/** apps/server: this module's folder walked up to the package (source and bundle alike). */
function serverRoot(): string {
  let dir = path.dirname(new URL(import.meta.url).pathname);
  for (let i = 0; i < 8; i++) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (manifest.name === '@podforge/server') return dir;
    } catch {
      // not here
    }
    dir = path.dirname(dir);
  }
  throw new Error('Could not find the @podforge/server package folder');
}

export type ShopifyGraphqlError = {
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions: Record<string, unknown>;
};

export type PreparedRequest =
  | {
      ok: true;
      document: DocumentNode;
      operation: OperationDefinitionNode;
      /** The operation's variables coerced to their types. */
      variables: Record<string, unknown>;
      /** The operation's top-level field names, in order. */
      fields: string[];
      /** Deprecated fields, arguments and enum values the document uses (Shopify then sends a header). */
      deprecated: string[];
    }
  | { ok: false; errors: ShopifyGraphqlError[] };

const at = (e: GraphQLError) => (e.locations?.length ? { locations: [...e.locations] } : {});

/** graphql-js's rules as graphql-ruby words them (the code Shopify sends, and its message). */
const RUBY_RULES: { rule: ValidationRule; code: string; message?: (m: string) => string | null }[] = [
  {
    rule: FieldsOnCorrectTypeRule,
    code: 'undefinedField',
    message: (m) => {
      const x = /Cannot query field "(\w+)" on type "(\w+)"/.exec(m);
      return x ? `Field '${x[1]}' doesn't exist on type '${x[2]}'` : null;
    },
  },
  {
    rule: ScalarLeafsRule,
    code: 'selectionMismatch',
    message: (m) => {
      const leaf = /Field "(\w+)" must not have a selection since type "([^"]+)" has no subfields/.exec(m);
      if (leaf) return `Selections can't be made on scalars (field '${leaf[1]}' returns ${leaf[2]} but has selections)`;
      const obj = /Field "(\w+)" of type "([^"]+)" must have a selection of subfields/.exec(m);
      const type = obj?.[2]?.replace(/[[\]!]/g, '');
      return obj
        ? `Field must have selections (field '${obj[1]}' returns ${type} but has no selections. Did you mean '${obj[1]} { ... }'?)`
        : null;
    },
  },
  {
    rule: ProvidedRequiredArgumentsRule,
    code: 'missingRequiredArguments',
    message: (m) => {
      const x = /Field "(\w+)" argument "(\w+)" of type "[^"]+" is required/.exec(m);
      return x ? `Field '${x[1]}' is missing required arguments: ${x[2]}` : null;
    },
  },
  {
    rule: KnownArgumentNamesRule,
    code: 'argumentNotAccepted',
    message: (m) => {
      const x = /Unknown argument "(\w+)" on field "\w+\.(\w+)"/.exec(m);
      return x ? `Field '${x[2]}' doesn't accept argument '${x[1]}'` : null;
    },
  },
  {
    rule: NoUnusedVariablesRule,
    code: 'variableNotUsed',
    message: (m) => {
      const x = /Variable "\$(\w+)" is never used(?: in operation "(\w+)")?/.exec(m);
      return x ? `Variable $${x[1]} is declared by ${x[2] ?? 'anonymous query'} but not used` : null;
    },
  },
  {
    rule: NoUndefinedVariablesRule,
    code: 'variableNotDefined',
    message: (m) => {
      const x = /Variable "\$(\w+)" is not defined(?: by operation "(\w+)")?/.exec(m);
      return x ? `Variable $${x[1]} is used by ${x[2] ?? 'anonymous query'} but not declared` : null;
    },
  },
  {
    rule: VariablesInAllowedPositionRule,
    code: 'variableMismatch',
    message: (m) => {
      const x = /Variable "\$(\w+)" of type "([^"]+)" used in position expecting type "([^"]+)"/.exec(m);
      if (!x) return null;
      const kind = x[2]?.replace(/!/g, '') === x[3]?.replace(/!/g, '') ? 'Nullability mismatch' : 'Type mismatch';
      return `${kind} on variable $${x[1]} (${x[2]} / ${x[3]})`;
    },
  },
  { rule: ValuesOfCorrectTypeRule, code: 'argumentLiteralsIncompatible' },
];

/** The rule an error of `validate` came from, found by running the rules one at a time (only when invalid). */
function rubyValidationErrors(s: GraphQLSchema, document: DocumentNode): ShopifyGraphqlError[] {
  const out: ShopifyGraphqlError[] = [];
  for (const rule of specifiedRules) {
    const known = RUBY_RULES.find((r) => r.rule === rule);
    for (const e of validate(s, document, [rule])) {
      out.push({
        message: known?.message?.(e.message) ?? e.message,
        ...at(e),
        path: [],
        extensions: { code: known?.code ?? 'validationError' },
      });
    }
  }
  return out;
}

/** graphql-js's words for a refused input value as graphql-ruby's `explanation`, with the path to the problem. */
function problemOf(s: GraphQLSchema, pathTo: readonly (string | number)[], invalid: unknown, error: GraphQLError) {
  const m = error.message;
  const missing = /Field "(\w+)" of required type "[^"]+" was not provided/.exec(m);
  if (missing) return { path: [...pathTo, missing[1] as string], explanation: 'Expected value to not be null' };
  const undefinedField = /Field "(\w+)" is not defined by type "(\w+)"/.exec(m);
  if (undefinedField) {
    return {
      path: [...pathTo, undefinedField[1] as string],
      explanation: `Field is not defined on ${undefinedField[2]}`,
    };
  }
  if (/not to be null/.test(m)) return { path: [...pathTo], explanation: 'Expected value to not be null' };
  const enumValue = /Value "([^"]+)" does not exist in "(\w+)" enum/.exec(m);
  if (enumValue) {
    const type = s.getType(enumValue[2] as string);
    const values = type instanceof GraphQLEnumType ? type.getValues().map((v) => v.name) : [];
    return { path: [...pathTo], explanation: `Expected "${enumValue[1]}" to be one of: ${values.join(', ')}` };
  }
  const scalar = /^(\w+) cannot represent/.exec(m);
  if (scalar)
    return { path: [...pathTo], explanation: `Could not coerce value ${JSON.stringify(invalid)} to ${scalar[1]}` };
  return { path: [...pathTo], explanation: m };
}

/**
 * Parses, validates and coerces a request as Shopify would before running it: the operation to run and its
 * variables, or the top-level errors Shopify answers (HTTP 200).
 */
export function prepareShopifyRequest(
  query: string,
  variables: Record<string, unknown>,
  operationName?: string,
): PreparedRequest {
  const s = shopifyAdminSchema();
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (e) {
    const error = e as GraphQLError;
    const token = /found (.+?)\.?$/.exec(error.message)?.[1] ?? 'the document';
    const loc = error.locations?.[0];
    return {
      ok: false,
      errors: [
        {
          message: `Parse error on ${token}${loc ? ` at [${loc.line}, ${loc.column}]` : ''}`,
          ...at(error),
          extensions: { code: 'parseError' },
        },
      ],
    };
  }
  if (validate(s, document).length) return { ok: false, errors: rubyValidationErrors(s, document) };
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (!operation || (!operationName && operations.length > 1)) {
    return {
      ok: false,
      errors: [
        {
          message: operationName
            ? `No operation named "${operationName}"`
            : 'An operation name is required when the document has several operations',
          extensions: { code: 'operationNotFound' },
        },
      ],
    };
  }
  const errors: ShopifyGraphqlError[] = [];
  const coerced: Record<string, unknown> = {};
  for (const def of operation.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    const type = typeFromAST(s, def.type) as GraphQLInputType | undefined;
    if (!type || !isInputType(type)) continue;
    const given = Object.hasOwn(variables, name);
    const value = variables[name];
    const problems: { path: (string | number)[]; explanation: string }[] = [];
    if (!given || value === null) {
      if (isNonNullType(type) && !def.defaultValue)
        problems.push({ path: [], explanation: 'Expected value to not be null' });
      else if (given) coerced[name] = null;
    } else {
      const result = coerceInputValue(value, type, (pathTo, invalid, error) =>
        problems.push(problemOf(s, pathTo, invalid, error)),
      );
      if (!problems.length) problems.push(...badGlobalIds(type, result, []));
      if (!problems.length) coerced[name] = result;
    }
    if (problems.length) {
      const where = problems.filter((p) => p.path.length).map((p) => `${p.path.join('.')} (${p.explanation})`);
      errors.push({
        message: `Variable $${name} of type ${String(type)} was provided invalid value${where.length ? ` for ${where.join(', ')}` : ''}`,
        locations: def.loc ? [{ line: def.loc.startToken.line, column: def.loc.startToken.column }] : [],
        extensions: { code: 'INVALID_VARIABLE', value: value ?? null, problems },
      });
    }
  }
  if (errors.length) return { ok: false, errors };
  const fields = operation.selectionSet.selections.flatMap((sel) => (sel.kind === Kind.FIELD ? [sel.name.value] : []));
  return { ok: true, document, operation, variables: coerced, fields, deprecated: deprecatedUses(s, document) };
}

/** Where a document uses something its schema marks deprecated. */
function deprecatedUses(s: GraphQLSchema, document: DocumentNode): string[] {
  const found: string[] = [];
  const typeInfo = new TypeInfo(s);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        if (typeInfo.getFieldDef()?.deprecationReason) {
          found.push(`${typeInfo.getParentType()?.name}.${node.name.value}`);
        }
      },
      Argument(node) {
        if (typeInfo.getArgument()?.deprecationReason) found.push(`argument ${node.name.value}`);
      },
      EnumValue(node) {
        if (typeInfo.getEnumValue()?.deprecationReason) found.push(`enum value ${node.value}`);
      },
    }),
  );
  return found;
}

/** Shopify's IDs are global ids (`gid://shopify/Product/1`): any other string in an ID input is refused. */
function badGlobalIds(
  type: GraphQLInputType,
  value: unknown,
  at: (string | number)[],
): { path: (string | number)[]; explanation: string }[] {
  if (value === null || value === undefined) return [];
  const inner = isNonNullType(type) ? type.ofType : type;
  if (inner instanceof GraphQLList) {
    return (Array.isArray(value) ? value : [value]).flatMap((v, i) => badGlobalIds(inner.ofType, v, [...at, i]));
  }
  if (inner instanceof GraphQLInputObjectType && typeof value === 'object') {
    const fields = inner.getFields();
    return Object.entries(value as Record<string, unknown>).flatMap(([key, v]) => {
      const field = fields[key];
      return field ? badGlobalIds(field.type, v, [...at, key]) : [];
    });
  }
  if (inner instanceof GraphQLScalarType && inner.name === 'ID' && !/^gid:\/\/shopify\/\w+\/\S+$/.test(String(value))) {
    return [{ path: at, explanation: `Invalid global id \`${String(value)}\`` }];
  }
  return [];
}

/** A field error as Shopify words a missing scope (apis.md A2): the field reads null. */
export function accessDenied(field: string, scope: string): GraphQLError {
  return new GraphQLError(`Access denied for ${field} field. Required access: \`${scope}\` access scope.`, {
    extensions: {
      code: 'ACCESS_DENIED',
      documentation: 'https://shopify.dev/api/usage/access-scopes',
      requiredAccess: `\`${scope}\` access scope.`,
    },
  });
}

export type ProtectedDataAccess = 'none' | 'level1' | 'level2';
/** What every resolver of a request knows. */
export type FakeRootContext = {
  shop: string;
  scopes: string[];
  /**
   * The app's protected customer data access (shopify.dev/docs/apps/launch/protected-customer-data): level 1 for
   * customer data without name, address, phone and email; level 2 with them; none for a public app not approved.
   */
  protectedData: ProtectedDataAccess;
  /** Set by a resolver that did its work and must then answer HTTP 500 (a dropped connection after the fact). */
  failAfterApply: string | null;
};
/** A root field's resolver: its coerced arguments and the request's context. */
export type FakeRoot = (args: Record<string, unknown>, ctx: FakeRootContext) => unknown;

/** Whether `scopes` grant `needed` (a write scope grants its read scope). */
export const grants = (scopes: string[], needed: string) =>
  scopes.includes(needed) || (needed.startsWith('read_') && scopes.includes(`write_${needed.slice(5)}`));

type ConnectionArgs = { first?: number | null; last?: number | null; after?: string | null; before?: string | null };

const cursorOf = (i: number) => Buffer.from(`cursor:${i}`).toString('base64');
const indexOf = (cursor: string | null | undefined) => {
  if (!cursor) return null;
  const m = /^cursor:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (!m) throw new GraphQLError('Invalid cursor', { extensions: { code: 'BAD_REQUEST' } });
  return Number(m[1]);
};

/**
 * A connection field (`nodes`, `edges`, `pageInfo`) over `list`, resolved with its arguments: Shopify refuses a
 * connection asked for without `first` or `last`, and pages with opaque cursors.
 */
export function connection<T>(list: T[] | (() => T[] | Promise<T[]>)) {
  return async (given: Record<string, unknown>) => {
    const args = given as ConnectionArgs;
    const all = typeof list === 'function' ? await list() : list;
    if (args.first == null && args.last == null) {
      throw new GraphQLError('you must provide one of first or last', { extensions: { code: 'BAD_REQUEST' } });
    }
    const after = indexOf(args.after);
    const before = indexOf(args.before);
    let start = after === null ? 0 : after + 1;
    let end = before === null ? all.length : Math.min(before, all.length);
    if (args.first != null) end = Math.min(end, start + Math.max(0, args.first));
    if (args.last != null) start = Math.max(start, end - Math.max(0, args.last));
    const nodes = all.slice(start, end);
    const edges = nodes.map((node, i) => ({ node, cursor: cursorOf(start + i) }));
    return {
      nodes,
      edges,
      pageInfo: {
        hasNextPage: end < all.length,
        hasPreviousPage: start > 0,
        startCursor: nodes.length ? cursorOf(start) : null,
        endCursor: nodes.length ? cursorOf(end - 1) : null,
      },
    };
  };
}

/** A list field with an optional `first` (e.g. `Product.options(first:)`, `Fulfillment.trackingInfo(first:)`). */
export const firstOf =
  <T>(list: T[]) =>
  (args: Record<string, unknown>) =>
    typeof args.first === 'number' ? list.slice(0, Math.max(0, args.first)) : list;
