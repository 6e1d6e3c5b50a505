// Small DOM helpers shared by the client modules.
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

export function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

export function titleCase(s) {
  return String(s || '').replace(/[_-]+/g, ' ').replace(/\b\w/g, (m) => m.toUpperCase());
}

export function sideName(side) {
  if (!side) return '';
  const s = String(side);
  const [base, role] = s.split(':');
  const b = { AXIS: 'Axis', ALLIES: 'Allies' }[base] || titleCase(base);
  const roles = { cinc: 'C-in-C', left: 'Left general', centre: 'Centre general', center: 'Centre general', right: 'Right general', commander: 'Commander' };
  return role ? `${b} (${roles[role] || titleCase(role)})` : b;
}
