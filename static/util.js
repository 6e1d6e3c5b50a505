// Small DOM helpers shared by the client modules.
import { t } from './i18n.js';
export const SVGNS = 'http://www.w3.org/2000/svg';

export function svg(tag, attrs = {}, text) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// Handle a form's submit in script (never the browser's own GET or POST) and only then
// enable its submit buttons: the page renders them `disabled data-until-ready`, so Enter
// or a click before the module has loaded does nothing, instead of reloading the page
// with the fields (a name, a password) in its address.
export function onSubmit(form, run) {
  form.addEventListener('submit', (ev) => { ev.preventDefault(); return run(ev); });
  for (const b of form.querySelectorAll('[data-until-ready]')) {
    b.removeAttribute('data-until-ready');
    b.disabled = false;
  }
  form.dataset.ready = '1';
}

export function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

// Re-render `container` with `draw()` and keep the keyboard focus: a control inside it
// that had the focus is focused again in the new drawing (found by its data-card,
// data-action, data-claim or id, else by its text), so a keyboard or screen-reader
// user does not fall back to the top of the page at every update.
export function keepFocus(container, draw) {
  const a = document.activeElement;
  if (!a || !container.contains(a) || a === container) { draw(); return; }
  const attrs = ['data-card', 'data-action', 'data-claim', 'data-switch', 'id'];
  const attr = attrs.find((x) => a.hasAttribute(x));
  const value = attr ? a.getAttribute(attr) : null;
  const text = a.textContent;
  const tag = a.tagName;
  draw();
  const again = attr
    ? [...container.querySelectorAll(`[${attr}]`)].find((x) => x.getAttribute(attr) === value)
    : [...container.querySelectorAll(tag)].find((x) => x.textContent === text);
  if (again && typeof again.focus === 'function') again.focus();
}

export function titleCase(s) {
  return String(s || '').replace(/[_-]+/g, ' ').replace(/\b\w/g, (m) => m.toUpperCase());
}

export function sideName(side) {
  if (!side) return '';
  const s = String(side);
  const [base, role] = s.split(':');
  // the sides' names (France 1944 seats ALLIED / GERMAN; the Portable Wargame RED / BLUE)
  const b = { AXIS: t('Axis'), ALLIES: t('Allies'), ALLIED: t('Allies'), GERMAN: t('Germans') }[base] || titleCase(base.toLowerCase());
  const roles = { cinc: t('C-in-C'), left: t('Left general'), centre: t('Centre general'), center: t('Centre general'), right: t('Right general'), commander: t('Commander') };
  return role ? `${b} (${roles[role] || titleCase(role)})` : b;
}

// An update's `view_patch` applied to the previous view (docs/protocol.md "View patches"):
// an object patch gives the members that changed (a nested object: its own patch; any
// other value, null included, replaces), `"~del": [names]` the members removed; a list of
// records with ids (the units) may come as `{"~id": {id: patch | null}, "~add": [records]}`.
// Returns a new object; the previous view is not modified.
export function mergePatch(target, patch) {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  if (Array.isArray(target) && patch['~id'] && typeof patch['~id'] === 'object') {
    const items = patch['~id'];
    const seen = new Set();
    const out = [];
    for (const x of target) {
      const k = x && typeof x === 'object' && x.id !== undefined ? String(x.id) : null;
      if (k !== null && Object.prototype.hasOwnProperty.call(items, k)) {
        seen.add(k);
        if (items[k] === null) continue;
        out.push(mergePatch(x, items[k]));
      } else out.push(x);
    }
    for (const v of patch['~add'] || []) out.push(v);
    return out;
  }
  const out = (target && typeof target === 'object' && !Array.isArray(target)) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k === '~del') { for (const gone of v) delete out[gone]; continue; }
    const old = out[k];
    out[k] = (v !== null && typeof v === 'object' && !Array.isArray(v) && old !== null && typeof old === 'object') ? mergePatch(old, v) : v;
  }
  return out;
}

// JSON over fetch with the page's cookie: the answer's JSON, or an Error carrying the
// server's message (docs/protocol.md errors: {error: {code, message}}) and its code
export async function apiFetch(base, path, opts = {}) {
  const init = { credentials: 'same-origin', ...opts };
  if (init.body) init.headers = { 'Content-Type': 'application/json', ...(init.headers || {}) };
  const r = await fetch(`${base}${path}`, init);
  let data = null;
  try { data = await r.json(); } catch (_) { /* no body */ }
  if (!r.ok) {
    const err = new Error((data && data.error && data.error.message) || `HTTP ${r.status}`);
    err.code = data && data.error && data.error.code;
    throw err;
  }
  return data;
}
