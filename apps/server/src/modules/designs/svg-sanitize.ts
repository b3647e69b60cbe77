import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { hostileAttribute, hostileInSvg } from './svg-references';

export class HostileSvgError extends Error {}

const { window } = new JSDOM('');
const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);

const HOSTILE_ELEMENTS = new Set(['script', 'foreignobject', 'iframe', 'embed', 'object', 'style']);

/**
 * Sanitises an SVG with DOMPurify's SVG profile plus our own rules, and refuses it (HostileSvgError naming what was
 * found) when it carried active or external content: scripts, event handlers, foreignObject, style sheets, links
 * and CSS url()s that are not `#fragment`s however spelt (svg-references.ts: entities, CSS escapes and comments
 * resolved first; so no `javascript:`, `data:` or external references), CSS imports or a DOCTYPE with entities. Harmless unknown elements (editor metadata) are just dropped.
 */
export function sanitizeSvg(text: string): string {
  const source = text.replace(/^\uFEFF/, '');
  if (/<!DOCTYPE|<!ENTITY/i.test(source)) throw new HostileSvgError('it declares a DOCTYPE or entities');
  if (!/<svg[\s>]/i.test(source)) throw new HostileSvgError('it has no <svg> element');
  const found: string[] = [];

  purify.addHook('uponSanitizeElement', (_node, data) => {
    if (HOSTILE_ELEMENTS.has(data.tagName.toLowerCase())) found.push(`a <${data.tagName}> element`);
  });
  // Values arrive with entities resolved (`&#x75;rl(` is `url(`); CSS escapes and comments are resolved by the rule.
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const hostile = hostileAttribute(data.attrName, data.attrValue);
    if (hostile) {
      found.push(hostile);
      data.keepAttr = false;
    }
  });
  let clean: string;
  try {
    clean = purify.sanitize(source.replace(/^\s*<\?xml[^>]*\?>/, ''), {
      USE_PROFILES: { svg: true, svgFilters: true },
      FORBID_TAGS: ['style', 'foreignObject', 'script'],
      ADD_TAGS: ['use'],
    });
  } finally {
    purify.removeAllHooks();
  }
  if (found.length > 0) throw new HostileSvgError(`it contains ${[...new Set(found)].join(', ')}`);
  if (!/<svg[\s>]/i.test(clean)) throw new HostileSvgError('it is not well-formed SVG');
  // DOMPurify read it as HTML; librsvg reads XML. The output is checked again as XML, as the rasteriser will read it.
  const left = hostileInSvg(clean);
  if (left.length > 0) throw new HostileSvgError(`it contains ${left.join(', ')}`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${clean}`;
}
