"""Offers: a return match or a challenge addressed to one player, accepted or declined;
the game is created when both are in."""
