// Remote play: turn clocks, presence per seat and spectators, resign, undo, the absence
// policy (claim the win / a bot for the absent), and "your turn" notifications (title,
// favicon, optional browser notification).  Protocol: docs/protocol.md "Remote play".
import { el, clear, sideName } from './util.js';
import { t, tn } from './i18n.js';

export function fmtClock(sec) {
  if (sec === null || sec === undefined) return '';
  const s = Math.max(0, Math.floor(sec));
  if (s >= 86400) return t('{d}d {h}h', { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  if (s >= 3600) return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// the clock as the server sent it, counted down locally from when it arrived
export class ClockView {
  constructor() { this.clock = null; this.at = 0; }
  set(clock) { this.clock = clock || null; this.at = performance.now(); }
  left(side) {
    const c = this.clock;
    if (!c) return null;
    const base = (c.remaining || {})[side];
    if (base === undefined) return null;
    const running = (c.running || []).includes(side);
    return running ? base - (performance.now() - this.at) / 1000 : base;
  }
  running(side) { return !!this.clock && (this.clock.running || []).includes(side); }
}

const STATE_TEXT = { online: t('online'), away: t('away'), gone: t('gone'), bot: t('bot'), free: t('free seat') };
// a role seat's role (Overlord, team play: AXIS:left), in short
const ROLE_WORD = { cinc: t('C-in-C'), left: t('left'), centre: t('centre'), right: t('right') };

// one line per side: presence of its seats, and its clock
export function sideExtras(side, { seats, presence, clock }) {
  const out = [];
  const ps = ((presence && presence.seats) || []).filter((p) => p.seat.split(':')[0] === side);
  if (ps.length) {
    const line = el('div', { class: 'presence', 'data-side': side });
    for (const p of ps) {
      const seat = (seats || []).find((s) => s.seat === p.seat);
      const who = seat && seat.held_by ? seat.held_by : sideName(p.seat);
      const title = p.state === 'away' ? t('{who}: disconnected {n}s ago', { who, n: p.away_seconds }) : p.state === 'gone' ? t('{who}: gone for {n}s', { who, n: p.away_seconds }) : `${who}: ${STATE_TEXT[p.state] || p.state}`;
      line.append(el('span', { class: `pres pres-${p.state}`, 'data-seat': p.seat, 'data-state': p.state, title }, '●', ps.length > 1 ? ` ${ROLE_WORD[p.seat.split(':')[1]] || p.seat.split(':')[1] || ''}` : '', ` ${STATE_TEXT[p.state] || p.state}${p.bot && p.state !== 'bot' ? ` (${t('bot plays')})` : ''}`));
    }
    out.push(line);
  }
  if (clock && clock.clock) {
    const left = clock.left(side);
    out.push(el('div', { class: `clock${clock.running(side) ? ' running' : ''}${left !== null && left < 30 ? ' low' : ''}`, 'data-clock': side, title: clockTitle(clock.clock) }, t('Clock {time}', { time: fmtClock(left) })));
  }
  return out;
}

function clockTitle(c) {
  const kind = c.kind === 'bank' ? t('time bank, +{n}s per turn', { n: c.increment_seconds }) : t('{time} per decision', { time: fmtClock(c.move_seconds) });
  const then = c.on_timeout === 'bot' ? t('the bot decides') : t('the side loses');
  return t('Turn clock: {kind}; out of time: {then}', { kind, then });
}

// The bar under the status line: spectators, undo, resign, absence choices.
export function renderRemoteBar(root, ctx) {
  const { S, send, presence } = ctx;
  clear(root);
  const parts = [];
  const n = presence ? presence.spectators : 0;
  parts.push(el('span', { class: 'muted', id: 'spectator-count', 'data-count': n, title: t('People watching this game') }, tn('{n} spectator', '{n} spectators', n)));
  const live = S.status === 'live' && S.view && !S.view.game_over;
  if (S.seat && live) {
    if (S.undo !== null && S.undo !== undefined) {
      parts.push(el('button', { type: 'button', id: 'undo-btn', title: t('Take back your last step (possible until dice are rolled, a card is drawn, something hidden is revealed or the opponent acts)'), onclick: () => send({ type: 'undo' }) }, `↶ ${t('Undo')}`));
    }
    parts.push(el('button', { type: 'button', id: 'resign-btn', class: 'danger', onclick: () => {
      if (window.confirm(t('Resign? {side} lose the battle at once.', { side: sideName(S.side) }))) send({ type: 'resign' });
    } }, t('Resign')));
    const other = ((presence && presence.seats) || []).filter((p) => p.seat.split(':')[0] !== S.side && p.state !== 'free' && p.state !== 'bot');
    if (other.length && other.every((p) => p.state === 'gone')) {
      parts.push(el('span', { class: 'absence', id: 'absence' }, t('Your opponent has been gone for more than {n}s.', { n: presence.grace })));
      parts.push(el('button', { type: 'button', id: 'claim-win-btn', class: 'primary', onclick: () => {
        if (window.confirm(t('Claim the win? The absent side loses.'))) send({ type: 'claim_win' });
      } }, t('Claim the win')));
      if (!other.every((p) => p.bot)) parts.push(el('button', { type: 'button', id: 'absent-bot-btn', onclick: () => send({ type: 'absent_bot' }) }, t('Let a bot play for him')));
    }
  }
  if (S.view && S.view.game_over) parts.push(...afterGame(ctx));
  root.append(...parts);
  root.classList.toggle('hidden', !parts.length);
}

// at the end: the replay, the return match (sides swapped, same players: offered by
// one, accepted or declined by the other), the match
function afterGame({ S, gameId, rematch, match }) {
  const out = [el('a', { class: 'btn', id: 'replay-link', href: `/games/${gameId}/replay` }, t('Watch the replay'))];
  if (match && match.campaign) {
    // a campaign battle: the campaign goes on (its next battle), no return match
    out.push(el('a', { class: 'btn primary', id: 'campaign-link', href: match.campaign.url }, t('Back to the campaign')));
  } else if (S.seat && S.mode === '1v1' && match && match.first === gameId) {
    const o = S.rematchOffer;
    if (!o) {
      out.push(el('button', { type: 'button', class: 'primary', id: 'rematch-btn', onclick: () => rematch('offer') }, t('Offer a return match (sides swapped)')));
    } else if (o.status === 'pending' && o.mine) {
      out.push(el('span', { id: 'rematch-status', 'data-status': 'offered' }, t('Return match offered to {name}: waiting for an answer.', { name: o.to_name })));
      out.push(el('button', { type: 'button', id: 'rematch-cancel', onclick: () => rematch('cancel') }, t('Withdraw')));
    } else if (o.status === 'pending') {
      out.push(el('span', { id: 'rematch-status', 'data-status': 'received' }, t('{name} offers a return match.', { name: o.from_name })));
      out.push(el('button', { type: 'button', class: 'primary', id: 'rematch-btn', onclick: () => rematch('accept') }, t('Accept')));
      out.push(el('button', { type: 'button', id: 'rematch-decline', onclick: () => rematch('decline') }, t('Decline')));
    } else if (o.status === 'accepted' && o.game_url) {
      out.push(el('a', { class: 'btn primary', id: 'rematch-link', href: o.game_url }, t('Go to the return match')));
    } else {
      out.push(el('span', { id: 'rematch-status', 'data-status': o.status, class: 'muted' }, { declined: t('Return match declined.'), cancelled: t('Return match withdrawn.') }[o.status] || t('Return match accepted.')));
    }
  }
  if (match && match.second) {
    out.push(el('a', { class: 'btn', id: 'match-link', href: match.url }, match.finished ? (match.winner ? t('Match: {who} wins', { who: match.winner }) : t('Match: drawn')) : t('The match')));
  }
  return out;
}

// ------------------------------------------------------------------ your turn
const BASE_TITLE = document.title;
let iconLink = null;
function setIcon(mine) {
  if (!iconLink) iconLink = document.querySelector('link[rel="icon"]');
  if (iconLink) iconLink.href = mine ? '/static/favicon-turn.svg' : '/static/favicon.svg';
}

export class TurnNotifier {
  constructor() { this.mine = false; this.enabled = localStorage.getItem('overlord.notify') === '1'; }
  update(mine, text) {
    document.title = mine ? `▶ ${t('Your turn')} · ${BASE_TITLE}` : BASE_TITLE;
    document.body.dataset.myTurn = mine ? '1' : '0';
    setIcon(mine);
    if (mine && !this.mine && this.enabled && document.hidden && 'Notification' in window && Notification.permission === 'granted') {
      try { new Notification(t('Your turn'), { body: text || t('It is your move.'), tag: 'overlord-turn', icon: '/static/favicon-turn.svg' }); } catch (_) { /* ignore */ }
    }
    this.mine = mine;
  }
  toggle() {
    return el('label', { class: 'muted notify-toggle', title: t('A browser notification when it becomes your turn while this tab is hidden') },
      el('input', { type: 'checkbox', id: 'notify-toggle', checked: this.enabled ? true : null, onchange: async (ev) => {
        this.enabled = ev.target.checked;
        localStorage.setItem('overlord.notify', this.enabled ? '1' : '0');
        if (this.enabled && 'Notification' in window && Notification.permission === 'default') {
          try { await Notification.requestPermission(); } catch (_) { /* ignore */ }
        }
      } }), ` ${t('notify me')}`);
  }
}
