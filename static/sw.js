// Service worker: shows the server's Web Push notifications ({title, body, url}) and
// opens the game (or the inbox) when one is clicked.
self.addEventListener('push', (ev) => {
  let data = {};
  try { data = ev.data ? ev.data.json() : {}; } catch (_) { data = { title: 'Overlord', body: ev.data ? ev.data.text() : '' }; }
  ev.waitUntil(self.registration.showNotification(data.title || 'Overlord', { body: data.body || '', data: { url: data.url || '/inbox' }, icon: '/static/favicon-turn.svg' }));
});
self.addEventListener('notificationclick', (ev) => {
  ev.notification.close();
  ev.waitUntil(self.clients.openWindow(ev.notification.data.url));
});
