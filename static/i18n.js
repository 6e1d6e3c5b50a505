// Translations for the client: the page's catalog (app/i18n.py, /i18n/<lang>.json, linked
// by <html data-i18n>), loaded once before any module that imports this one runs.
// t('English text', {name: value}) gives the text in the page's language ("{name}" filled
// in); the English text is the message id that `make messages` extracts from static/.
// tn('{n} card', '{n} cards', n, {name: value}) is the form for the count n ("{n}" filled
// in too): the catalog's plural forms, picked by the language's plural rule.
// term(text) translates a text that comes from the server (card, unit, terrain names:
// app/i18n_terms.py lists them for extraction).  errorText(err) is an error's message by
// its stable code.
// (outside a page, e.g. a module checked under Node, everything stays English)
const root = typeof document === 'undefined' ? null : document.documentElement;
let catalog = { messages: {}, plurals: {}, errors: {} };
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
// which plural form a count takes: the catalogs (Babel) order a language's forms as its
// CLDR plural categories in this order (French: one, many, other; German: one, other)
const CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'];
let rule = null;
let order = null;
function pluralIndex(n) {
  try {
    rule = rule || new Intl.PluralRules(LANG);
    order = order || CATEGORIES.filter((c) => rule.resolvedOptions().pluralCategories.includes(c));
  } catch (_) { return n === 1 ? 0 : 1; }
  return Math.max(0, order.indexOf(rule.select(Number(n))));
}
export function tn(singular, plural, n, params) {
  const forms = (catalog.plurals || {})[singular];
  const i = pluralIndex(n);
  const text = forms ? (forms[i] || forms[forms.length - 1]) : (i === 0 && Number(n) === 1 ? singular : plural);
  return fill(text, { n, ...(params || {}) });
}
export function term(text) { return (text && catalog.messages[text]) || text; }
export function errorText(err) {
  if (!err) return '';
  return (LANG !== 'en' && err.code && catalog.errors[err.code]) || err.message || err.code || '';
}
