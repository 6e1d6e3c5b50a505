// The header's inbox badge: how many things wait for the signed-in player.
const badge = document.getElementById('inbox-badge');
if (badge && document.body.dataset.signedIn === '1') {
  const refresh = () => fetch('/api/inbox', { credentials: 'same-origin' })
    .then((r) => (r.ok ? r.json() : null))
    .then((d) => { if (!d) return; badge.textContent = d.count ? String(d.count) : ''; badge.classList.toggle('hidden', !d.count); })
    .catch(() => {});
  refresh();
  setInterval(refresh, 60000);
}
