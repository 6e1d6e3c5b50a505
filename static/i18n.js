// Translations for the client: the page's catalog (app/i18n.py, /i18n/<lang>.json, linked
// by <html data-i18n>), loaded once before any module that imports this one runs.
// t('English text', {name: value}) gives the text in the page's language ("{name}" filled
// in); the English text is the message id that `make messages` extracts from static/.
// term(text) translates a text that comes from the server (card, unit, terrain names:
// app/i18n_terms.py lists them for extraction).  errorText(err) is an error's message by
// its stable code.
// (outside a page, e.g. a module checked under Node, everything stays English)
const root = typeof document === 'undefined' ? null : document.documentElement;
let catalog = { messages: {}, errors: {} };
if (root && root.dataset.i18n) {
  try {
    const r = await fetch(root.dataset.i18n, { credentials: 'same-origin' });
    if (r.ok) catalog = await r.json();
  } catch (_) { /* English */ }
}
export const LANG = (root && root.lang) || 'en';

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (Object.prototype.hasOwnProperty.call(params, k) ? String(params[k]) : m));
}
export function t(text, params) { return fill(catalog.messages[text] || text, params); }
export function term(text) { return (text && catalog.messages[text]) || text; }
export function errorText(err) {
  if (!err) return '';
  return (LANG !== 'en' && err.code && catalog.errors[err.code]) || err.message || err.code || '';
}
