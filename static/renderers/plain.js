// The reference renderer (docs/architecture.md "Client renderers"; the interface is
// written out at the top of static/renderer_host.js): the view as text and one button
// per legal action. A ruleset may name it (renderer "plain") until it has its own
// module; it is also the smallest example of the interface.
import { el, clear } from '../util.js';

let root = null;
let ctx = null;

export function mount(elem, context) {
  root = elem;
  ctx = context;
}

export function render(s) {
  clear(root);
  const actions = el('div', { class: 'actions-bar' });
  for (const a of s.legal || []) {
    const { seat: _seat, ...shown } = a;
    actions.append(el('button', { type: 'button', onclick: () => ctx.sendAction(a) }, JSON.stringify(shown)));
  }
  root.append(actions, el('pre', { class: 'plain-view' }, JSON.stringify(s.view, null, 1)));
}

export function unmount() {
  if (root) clear(root);
}
