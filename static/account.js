// Account page: register (a guest upgrades in place), sign in, e-mail, notification
// switches, sessions, password change; the password-reset form of a mailed link.
import { el, clear, apiFetch, onSubmit } from './util.js';
import { t } from './i18n.js';

const API = document.body.dataset.apiBase || '/api';
const $ = (id) => document.getElementById(id);

const api = (path, opts = {}) => apiFetch(API, path, opts);
const post = (path, body, method = 'POST') => api(path, { method, body: JSON.stringify(body) });
const KINDS = { your_turn: t('Your turn (in a game you are not connected to)'), offer: t('Challenges and return matches offered'), finished: t('A game finished') };

async function showSettings() {
  let me;
  try { me = await api('/accounts/me'); } catch (_) { return; }
  if (!me.registered) { $('register-title').textContent = t('Register (keeps your guest games)'); return; }
  $('register-panel').classList.add('hidden');
  $('settings-panel').classList.remove('hidden');
  $('account-summary').textContent = t('Signed in as {name}.', { name: me.name });
  $('account-summary').append(' ', el('a', { href: `/players/${encodeURIComponent(me.name)}`, id: 'profile-link' }, t('Your profile')));
  $('email-input').value = me.email || '';
  $('email-status').textContent = me.email ? (me.email_verified ? t('confirmed') : t('not confirmed yet')) : '';
  const box = $('notify-panel');
  box.querySelectorAll('label').forEach((n) => n.remove());
  for (const [kind, label] of Object.entries(KINDS)) {
    const cb = el('input', { type: 'checkbox', id: `notify-${kind}` });
    cb.checked = !!me.notify[kind];
    cb.addEventListener('change', () => post('/accounts/me/notifications', { [kind]: cb.checked }, 'PUT').catch(() => {}));
    box.append(el('label', {}, cb, ' ', label));
  }
  const list = clear($('session-list'));
  for (const s of await api('/identity/sessions')) {
    const device = s.label || t('a device');
    const li = el('li', {}, `${t('{device} · since {date}', { device, date: s.created_at.slice(0, 10) })}${s.current ? ' ' + t('(this one)') : ''} `);
    if (!s.current) li.append(el('button', { type: 'button', onclick: async () => { await api(`/identity/sessions/${s.id}`, { method: 'DELETE' }); showSettings(); } }, t('Sign out')));
    list.append(li);
  }
}

function form(id, statusId, run) {
  const f = $(id);
  if (!f) return;
  onSubmit(f, async () => {
    try { $(statusId).textContent = await run(); } catch (e) { $(statusId).textContent = e.message; }
  });
}
form('register-form', 'register-status', async () => {
  const body = { name: $('register-name').value.trim(), password: $('register-password').value };
  if ($('register-email').value.trim()) body.email = $('register-email').value.trim();
  await post('/accounts', body);
  await showSettings();
  return t('Registered.');
});
form('login-form', 'login-status', async () => {
  await post('/accounts/login', { name: $('login-name').value.trim(), password: $('login-password').value });
  location.href = '/inbox';
  return t('Signed in.');
});
form('email-form', 'email-status', async () => {
  await post('/accounts/me/email', { email: $('email-input').value.trim() }, 'PUT');
  return t('A confirmation link was sent.');
});
form('password-form', 'password-status', async () => {
  await post('/accounts/me/password', { password: $('password-current').value, new_password: $('password-new').value }, 'PUT');
  $('password-form').reset();
  await showSettings();
  return t('Password changed: your other devices are signed out.');
});
form('reset-form', 'reset-status', async () => {
  await post('/accounts/password-reset/confirm', { token: document.body.dataset.resetToken, password: $('reset-password').value });
  return t('Password changed: sign in with it.');
});
if ($('forgot-btn')) {
  $('forgot-btn').addEventListener('click', async () => {
    const name = $('login-name').value.trim();
    if (!name) { $('login-status').textContent = t('Type your name first.'); return; }
    try { await post('/accounts/password-reset', { name }); $('login-status').textContent = t('If the account has a confirmed e-mail, a link was sent.'); } catch (e) { $('login-status').textContent = e.message; }
  });
}
// Web Push: the server's VAPID key, a push subscription of this browser, kept by the server
function keyBytes(b64) {
  const s = atob((b64 + '='.repeat((4 - (b64.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}
async function offerPush() {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !$('push-btn')) return;
  const { public_key: key } = await api('/push/key');
  if (!key) return;
  $('push-btn').classList.remove('hidden');
  $('push-btn').addEventListener('click', async () => {
    try {
      const reg = await navigator.serviceWorker.register('/static/sw.js');
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
      await post('/accounts/me/push', sub.toJSON());
      $('push-status').textContent = t('This device will be notified.');
    } catch (e) { $('push-status').textContent = t('Not possible here: {reason}', { reason: e.message }); }
  });
}
if ($('settings-panel') && document.body.dataset.signedIn === '1') { showSettings(); offerPush().catch(() => {}); }
