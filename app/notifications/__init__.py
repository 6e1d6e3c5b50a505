"""Notifications outside an open tab: e-mail (SMTP_URL) and Web Push (VAPID keys)."""
