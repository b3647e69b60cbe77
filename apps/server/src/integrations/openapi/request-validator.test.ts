import { describe, expect, it } from 'vitest';
import { OpenApiRequestValidator } from './request-validator';

/** The OpenAPI 3.0 parts that are not JSON Schema, as the fakes' request check reads them. */
const doc = {
  paths: {
    '/things/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      patch: {
        operationId: 'updateThing',
        parameters: [
          { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } }, explode: false },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['id', 'name', 'kind'],
        properties: {
          id: { type: 'integer', readOnly: true },
          name: { type: 'string', nullable: true },
          kind: {
            oneOf: [{ $ref: '#/components/schemas/Shirt' }],
            discriminator: { propertyName: 'source', mapping: { shirt: '#/components/schemas/Shirt' } },
          },
          size: { type: 'string', enum: ['S', 'M'], nullable: true },
          weight: { type: 'number', format: 'float' },
        },
      },
      Shirt: { type: 'object', required: ['source'], properties: { source: { type: 'string', enum: ['shirt'] } } },
    },
  },
};

const v = new OpenApiRequestValidator(doc as never);
const check = (path: string, body: unknown, query = '') =>
  v.check({
    method: 'PATCH',
    pathname: path,
    query: new URLSearchParams(query),
    headers: {},
    body,
    contentType: 'application/json',
  });

describe('OpenApiRequestValidator', () => {
  it('nullable admits null; a readOnly field is not required of a request; discriminator leaves oneOf to decide', () => {
    expect(check('/things/3', { name: null, kind: { source: 'shirt' }, size: null, weight: 1.5 })).toBeNull();
    expect(check('/things/3', { name: 'a', kind: { source: 'hat' } })?.errors.join()).toMatch(
      /source must be one of shirt/,
    );
    expect(check('/things/3', { kind: { source: 'shirt' } })?.errors).toEqual(['body: name is required']);
  });

  it('path parameters from the path item, typed; query arrays split; a missing required body; an unknown path is not checked', () => {
    expect(check('/things/0', { name: 'a', kind: { source: 'shirt' } })?.errors).toEqual(['path.id must be >= 1']);
    expect(check('/things/abc', { name: 'a', kind: { source: 'shirt' } })?.errors).toEqual(['path.id must be integer']);
    expect(check('/things/3', { name: 'a', kind: { source: 'shirt' } }, 'tags=a,b')).toBeNull();
    expect(check('/things/3', undefined)?.errors).toEqual(['request: body is required']);
    expect(check('/other', { anything: true })).toBeNull();
  });

  it('a Content-Type the operation does not declare is refused when strict', () => {
    const problem = v.check({
      method: 'PATCH',
      pathname: '/things/3',
      query: new URLSearchParams(),
      headers: {},
      body: new URLSearchParams('name=a'),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(problem?.errors.join()).toMatch(/not accepted/);
  });
});
