"""Accounts: a name and a password on top of an identity (a guest upgrades in place),
sign-in on any device, an optional verified e-mail, password reset, notification
switches and Web Push subscriptions."""
