// Chat panes: one tab per channel this connection may read; writing only where allowed.
import { el, clear, sideName, titleCase } from './util.js';
import { t } from './i18n.js';

// why a channel is closed: the server's stable English texts (app/chat/policy.py) in the
// reader's language
const CLOSED = {
  'not your side': t('not your side'),
  'a private channel of two generals': t('a private channel of two generals'),
  'unknown channel': t('unknown channel'),
  'spectator chat is never shown to players': t('spectator chat is never shown to players'),
  'identify yourself (a guest name) to chat': t('identify yourself (a guest name) to chat'),
  'spectators write in the spectators channel': t('spectators write in the spectators channel'),
  'the Commander-in-Chief may not talk to all his Field Generals: only to the one he visits this turn': t('the Commander-in-Chief may not talk to all his Field Generals: only to the one he visits this turn'),
  'the Commander-in-Chief may not write where his Field Generals read: only to the one he visits this turn': t('the Commander-in-Chief may not write where his Field Generals read: only to the one he visits this turn'),
  'no Field General visited yet this turn: the line opens when the Commander-in-Chief confirms his orders': t('no Field General visited yet this turn: the line opens when the Commander-in-Chief confirms his orders'),
  "the opponent's turn: the Commander-in-Chief visits the front only on his side's turn": t("the opponent's turn: the Commander-in-Chief visits the front only on his side's turn"),
};
const VISITING = { Left: t('the Commander-in-Chief is visiting the Left Field General this turn'),
  Centre: t('the Commander-in-Chief is visiting the Centre Field General this turn'),
  Right: t('the Commander-in-Chief is visiting the Right Field General this turn') };
export function closedText(reason) {
  const r = String(reason);
  const m = r.match(/^the Commander-in-Chief is visiting the (\w+) Field General this turn(; your line to him opens when he visits you)?$/);
  if (m && VISITING[m[1]]) return `${VISITING[m[1]]}${m[2] ? t('; your line to him opens when he visits you') : ''}`;
  return CLOSED[r] || r;
}

const ROLE_SHORT = { left: t('Left FG'), centre: t('Centre FG'), right: t('Right FG') };

// me: {role} of the reader, to name a C-in-C <-> Field General line from his end
export function channelName(ch, me = {}) {
  if (ch === 'all') return t('All');
  if (ch === 'spectators') return t('Spectators');
  if (ch.startsWith('side:')) return t('{side} team', { side: sideName(ch.slice(5)) });
  if (ch.startsWith('pair:')) {
    const [, side, role] = ch.split(':');
    const fg = ROLE_SHORT[role] || titleCase(role);
    if (me.role === 'cinc') return t('To {fg}', { fg });
    if (me.role === role) return t('To C-in-C');
    return `${sideName(side)} C-in-C ↔ ${fg}`;
  }
  return titleCase(ch);
}

export class ChatPanel {
  constructor(root, send) {
    this.root = root;
    this.send = send;
    this.messages = new Map();   // channel -> [msg]
    this.read = [];
    this.write = [];
    this.closed = new Map();     // channel -> reason
    this.active = null;
    this.unread = new Map();
    this.me = {};
    this.drafts = new Map();     // channel -> text being typed (kept across re-renders)
    this.sig = null;
  }
  setChannels(channels = {}, me = null) {
    this.lastChannels = channels;
    if (me) this.me = me;
    const sig = JSON.stringify([channels, this.me]);
    if (sig === this.sig) return;     // the same channels: keep the pane as it is
    this.sig = sig;
    this.read = channels.read || [];
    this.write = channels.write || [];
    this.closed = new Map();
    const c = channels.closed || {};
    if (Array.isArray(c)) c.forEach((x) => this.closed.set(x.channel, x.reason || 'closed'));
    else Object.entries(c).forEach(([k, v]) => this.closed.set(k, v || 'closed'));
    // a spectator lands on the spectators' channel (the one he may write, once named)
    const first = !this.me.seat && this.read.includes('spectators') ? 'spectators' : this.read[0];
    if (!this.read.includes(this.active)) this.active = first || null;
    this.render();
  }
  setHistory(msgs) {
    this.messages = new Map();
    for (const m of msgs || []) this.push(m, false);
    this.render();
  }
  push(msg, render = true) {
    if (!this.messages.has(msg.channel)) this.messages.set(msg.channel, []);
    const list = this.messages.get(msg.channel);
    if (msg.id !== undefined && list.some((m) => m.id === msg.id)) return;
    list.push(msg);
    if (render) {
      if (msg.channel !== this.active) this.unread.set(msg.channel, (this.unread.get(msg.channel) || 0) + 1);
      this.render();
    }
  }
  markClosed(channel, reason) {
    this.closed.set(channel || this.active, reason || t('This channel is closed.'));
    this.render();
  }
  render() {
    const focused = this.root.contains(document.activeElement) && document.activeElement.tagName === 'INPUT';
    const r = clear(this.root);
    r.append(el('h3', {}, t('Chat')));
    if (!this.read.length) { r.append(el('div', { class: 'muted' }, t('No chat channel available.'))); return; }
    const tabs = el('div', { class: 'chat-tabs', role: 'tablist', 'aria-label': t('Chat') });
    for (const ch of this.read) {
      const n = this.unread.get(ch) || 0;
      tabs.append(el('button', {
        type: 'button', class: `${ch === this.active ? 'active' : ''}${this.closed.has(ch) ? ' closed' : ''}`, 'data-channel': ch,
        role: 'tab', 'aria-selected': ch === this.active ? 'true' : 'false', 'aria-controls': 'chat-pane',
        onclick: () => { this.active = ch; this.unread.delete(ch); this.render(); },
      }, channelName(ch, this.me), n ? ` (${n})` : ''));
    }
    r.append(tabs);
    const pane = el('div', { class: 'chat-pane', 'data-channel': this.active, id: 'chat-pane', role: 'tabpanel' });
    const box = el('div', { class: 'messages', role: 'log', 'aria-label': t('Chat') });
    for (const m of this.messages.get(this.active) || []) {
      box.append(el('div', { class: 'msg' }, el('span', { class: 'who' }, `${m.name || sideName(m.seat) || t('someone')}${m.seat ? ' (' + sideName(m.seat) + ')' : ''}:`), m.text));
    }
    pane.append(box);
    const closedReason = this.closed.get(this.active);
    if (closedReason) {
      const text = closedText(closedReason);
      pane.append(el('div', { class: 'chat-closed', 'data-closed': '1', 'data-channel': this.active }, `${t('Closed:')} ${text.charAt(0).toUpperCase()}${text.slice(1)}.`.replace(/\.\.$/, '.')));
      if (/identify yourself/.test(String(closedReason)) && this.identify) {
        // a nameless spectator: a guest name here, and he chats in the spectators' channel
        const name = el('input', { type: 'text', maxlength: 40, id: 'chat-name', placeholder: t('Your name'), 'aria-label': t('Your name') });
        pane.append(el('form', { class: 'chat-identify', onsubmit: (ev) => { ev.preventDefault(); const n = name.value.trim(); if (n) this.identify(n); } },
          name, el('button', { type: 'submit' }, t('Join the chat'))));
      }
    } else if (this.write.includes(this.active)) {
      const ch = this.active;
      const input = el('input', { type: 'text', maxlength: 1000, placeholder: t('Message {channel}…', { channel: channelName(this.active, this.me) }), 'aria-label': t('chat message'),
        value: this.drafts.get(ch) || '', oninput: (ev) => this.drafts.set(ch, ev.target.value) });
      const form = el('form', {
        onsubmit: (ev) => {
          ev.preventDefault();
          const text = input.value.trim();
          if (!text) return;
          this.send(this.active, text);
          input.value = '';
          this.drafts.delete(ch);
        },
      }, input, el('button', { type: 'submit' }, t('Send')));
      pane.append(form);
    } else {
      pane.append(el('div', { class: 'chat-closed', 'data-closed': '1' }, this.active === 'all' ? t('Read only: only players write here.') : t('Read only for you.')));
    }
    r.append(pane);
    box.scrollTop = box.scrollHeight;
    if (focused) { const i = pane.querySelector('input'); if (i) i.focus(); }
  }
}
