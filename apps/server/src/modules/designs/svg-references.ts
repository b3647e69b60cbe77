import { SaxesParser } from 'saxes';

/**
 * The one rule for what an SVG may point at: nothing but its own `#fragments`. Used by the streaming scan
 * (design-limits.ts, on the attribute values as an XML parser resolves them, like librsvg), by the sanitiser's hooks
 * and again on the sanitiser's output (svg-sanitize.ts). CSS is read the way a CSS parser reads it before anything is
 * checked: comments dropped and escapes (`u\72l(`, `\000075rl(`, `\(`) decoded; a value is checked as written, with
 * escapes decoded, and with comments dropped then escapes decoded, so no spelling hides a `url(`.
 */

const LINK_ATTRS = new Set(['href', 'xlink:href', 'src']);
/**
 * CSS that loads something: a url()/src()/image-set() whose argument is not a `#fragment`, or an @import.
 * `expression(` is old IE's script-in-CSS.
 */
const LOADS = /(?:url|src|image-set|-webkit-image-set)\((?!\s*['"]?\s*#)|@import|expression\s*\(/i;

/** Decodes CSS escapes: `\72` and `\000075 ` (hex, one optional white space after), `\` + newline, `\` + any char. */
export function decodeCssEscapes(text: string): string {
  return text.replace(/\\(?:([0-9a-fA-F]{1,6})(?:\r\n|[ \t\r\n\f])?|(\r\n|[\n\r\f])|([\s\S]))/g, (_m, hex, _nl, ch) => {
    if (hex) {
      const code = Number.parseInt(hex, 16);
      return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
        ? '\uFFFD'
        : String.fromCodePoint(code);
    }
    return ch ?? '';
  });
}

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '');

/** True when CSS text (an attribute's value or a style sheet) loads a document, picture or sheet from elsewhere. */
export function loadsExternal(css: string): boolean {
  // Nothing loads without a '(' or an '@', written or escaped (`\28`, `\40`): most values are numbers and colours.
  if (!/[(\\@]/.test(css)) return false;
  return [css, decodeCssEscapes(css), decodeCssEscapes(withoutComments(css))].some((r) => LOADS.test(r));
}

const shown = (value: string) => (value.length > 40 ? `${value.slice(0, 40)}…` : value);

/**
 * What is hostile about one attribute (`name` as written, `value` with XML entities resolved), as the refusal says
 * it, or null: an event handler, a link that is not a `#fragment` (javascript:, data:, http:, a file), or CSS in any
 * attribute (style, fill, filter, mask, clip-path, marker-*...) that loads something.
 */
export function hostileAttribute(name: string, value: string): string | null {
  const lower = name.toLowerCase();
  if (lower.startsWith('on')) return `an event handler (${name})`;
  const trimmed = value.trim();
  if ((LINK_ATTRS.has(lower) || lower.endsWith(':href')) && !trimmed.startsWith('#')) {
    return `a link that is not a fragment (${name}="${shown(trimmed)}")`;
  }
  if (loadsExternal(value)) {
    return `a url() that is not a fragment (${name}="${shown(decodeCssEscapes(withoutComments(trimmed)))}")`;
  }
  return null;
}

/**
 * Everything hostile in an SVG text as an XML parser (librsvg's kind) reads it: attributes, style sheets,
 * `<?xml-stylesheet?>` (which librsvg would load) and a DOCTYPE. The sanitiser runs it on its own output, so what the
 * rasteriser gets has been checked as the rasteriser will read it. A text that is not well-formed XML says so.
 */
export function hostileInSvg(text: string): string[] {
  const found: string[] = [];
  const parser = new SaxesParser({ xmlns: false, position: false });
  let inStyle = 0;
  parser.on('error', (error) => {
    found.push(`XML that does not parse (${String(error.message).split('\n')[0]})`);
  });
  parser.on('doctype', () => found.push('a DOCTYPE'));
  parser.on('processinginstruction', (pi) => {
    if (pi.target.toLowerCase() === 'xml-stylesheet') found.push('an xml-stylesheet instruction');
  });
  parser.on('opentag', (tag) => {
    const local = tag.name.toLowerCase().replace(/^.*:/, '');
    if (local === 'style') inStyle += 1;
    for (const [name, value] of Object.entries(tag.attributes as Record<string, string>)) {
      const hostile = hostileAttribute(name, value);
      if (hostile) found.push(hostile);
    }
  });
  parser.on('closetag', (tag) => {
    if (tag.name.toLowerCase().replace(/^.*:/, '') === 'style') inStyle -= 1;
  });
  const sheet = (css: string) => {
    if (inStyle > 0 && loadsExternal(css)) found.push('a <style> element that loads something');
  };
  parser.on('text', sheet);
  parser.on('cdata', sheet);
  try {
    parser.write(text).close();
  } catch (error) {
    found.push(`XML that does not parse (${String(error)})`);
  }
  return [...new Set(found)];
}
