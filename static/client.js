// The one websocket client of the game page (docs/protocol.md), shared by every renderer:
// the page's settings (pageConfig), the connection URL (`seat`, `invite`, `watch`, `since`),
// reconnects with jittered exponential backoff, message ids, keep-alive pings.
// renderer_host.js owns one GameClient; the renderer receives it in its mount context.

import { t } from './i18n.js';

// close codes after which knocking again cannot help (docs/protocol.md "Close codes")
const FINAL_CODES = new Set([4401, 4403, 4404]);

// The game page's settings, read once from <body data-*> and the query string.
export function pageConfig(body = document.body, search = location.search) {
  const q = new URLSearchParams(search);
  return {
    gameId: body.dataset.gameId,
    wsUrl: body.dataset.wsUrl || `/ws/games/${body.dataset.gameId}`,
    api: body.dataset.apiBase || '/api',
    renderer: body.dataset.renderer || 'hex',
    ruleset: body.dataset.ruleset,
    invite: body.dataset.invite || q.get('invite') || '',   // a private game is watched with it
    seat: q.get('seat') || '',                             // pins the connection to one seat
    watch: q.get('watch') || '',                           // a spectator's side (Kriegspiel)
    // a connection playing several seats (docs/protocol.md "Several role seats"): the seat
    // shown first (?as=), switched locally without reconnecting
    focus: q.get('as') || body.dataset.seat || '',
  };
}

// The words of the connection line (#conn) for a state.
export function connText(ok, code) {
  if (ok) return t('connected');
  if (code === 4404) return t('game not found');
  if (code === 4401 || code === 4403) return t('not authorised');
  return t('reconnecting…');
}

export class GameClient {
  // cfg: pageConfig() (its `seat` may change: a claimed or switched seat reconnects);
  // hooks: since() the last seq the page holds (null: none), onMessage(msg),
  // onState(ok, closeCode), notConnected() when a message cannot be sent
  constructor(cfg, { since, onMessage, onState, notConnected }) {
    this.cfg = cfg;
    this.since = since;
    this.onMessage = onMessage;
    this.onState = onState || (() => {});
    this.notConnected = notConnected || (() => {});
    this.ws = null; this.backoff = 500; this.stopped = false; this.msgId = 0; this.pingTimer = null;
    this.lastUrl = null;
  }

  url() {
    const cfg = this.cfg;
    let base = cfg.wsUrl;
    if (!/^wss?:/.test(base)) base = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${base}`;
    const u = new URL(base);
    if (cfg.seat) u.searchParams.set('seat', cfg.seat);
    if (cfg.invite) u.searchParams.set('invite', cfg.invite);
    if (cfg.watch) u.searchParams.set('watch', cfg.watch);
    const seq = this.since();
    if (seq !== null && seq !== undefined) u.searchParams.set('since', String(seq));
    return u.toString();
  }

  connect() {
    this.stopped = false;
    this.lastUrl = this.url();
    const ws = new WebSocket(this.lastUrl);
    this.ws = ws;
    ws.onopen = () => { this.backoff = 500; this.onState(true); };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (_) { return; }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.onState(false, ev.code);
      if (FINAL_CODES.has(ev.code) || this.stopped) return;
      // jittered: after a server restart every client of every game reconnects, and a
      // shared schedule would bring them all back in the same instant (server_busy, 1013)
      setTimeout(() => this.connect(), this.backoff * (0.5 + Math.random()));
      this.backoff = Math.min(this.backoff * 2, 8000);
    };
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.send({ type: 'ping' }), 25000);
  }

  // a new connection now (a claimed seat, a new identity): the old one is dropped silently
  reconnect() {
    const old = this.ws;
    this.ws = null;
    if (old) { old.onclose = null; try { old.close(1000); } catch (_) { /* ignore */ } }
    this.connect();
  }

  // send a protocol message; returns its id, or null when not connected
  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) { this.notConnected(); return null; }
    const id = obj.id ?? `m${++this.msgId}`;
    this.ws.send(JSON.stringify({ ...obj, id }));
    return id;
  }
}
