import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';

export class HostileSvgError extends Error {}

const { window } = new JSDOM('');
const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);

const URL_ATTRS = new Set(['href', 'xlink:href', 'src']);
const HOSTILE_ELEMENTS = new Set(['script', 'foreignobject', 'iframe', 'embed', 'object', 'style']);
/** A url() that is not a fragment reference (`url(#grad)` is fine), or a CSS import. */
const HOSTILE_CSS = /url\(\s*['"]?\s*(?!#)|@import|expression\s*\(/i;

/**
 * Sanitises an SVG with DOMPurify's SVG profile plus our own rules, and refuses it (HostileSvgError naming what was
 * found) when it carried active or external content: scripts, event handlers, foreignObject, style sheets, links
 * that are not `#fragment`s (so no `javascript:`, `data:` or external references), CSS imports or a DOCTYPE with
 * entities. Harmless unknown elements (editor metadata) are just dropped.
 */
export function sanitizeSvg(text: string): string {
  const source = text.replace(/^\uFEFF/, '');
  if (/<!DOCTYPE|<!ENTITY/i.test(source)) throw new HostileSvgError('it declares a DOCTYPE or entities');
  if (!/<svg[\s>]/i.test(source)) throw new HostileSvgError('it has no <svg> element');
  const found: string[] = [];

  purify.addHook('uponSanitizeElement', (_node, data) => {
    if (HOSTILE_ELEMENTS.has(data.tagName.toLowerCase())) found.push(`a <${data.tagName}> element`);
  });
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    const value = data.attrValue.trim();
    if (name.startsWith('on')) {
      found.push(`an event handler (${data.attrName})`);
      data.keepAttr = false;
    } else if (URL_ATTRS.has(name) && !value.startsWith('#')) {
      found.push(`a link that is not a fragment (${data.attrName}="${value.slice(0, 40)}")`);
      data.keepAttr = false;
    } else if (HOSTILE_CSS.test(value) && (name === 'style' || value.toLowerCase().includes('url('))) {
      found.push(`an external style reference (${data.attrName})`);
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
  return `<?xml version="1.0" encoding="UTF-8"?>\n${clean}`;
}
