/**
 * Design files the browser offers to upload (spec section 5): PNG, JPEG, SVG and PDF, by MIME type or extension.
 * The server checks the bytes whatever the browser let through.
 */
export const DESIGN_ACCEPT = {
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/svg+xml': ['.svg'],
  'application/pdf': ['.pdf'],
};

/** The same list as an `<input accept>` value. */
export const DESIGN_ACCEPT_ATTRIBUTE = Object.entries(DESIGN_ACCEPT)
  .flatMap(([mime, extensions]) => [mime, ...extensions])
  .join(',');
