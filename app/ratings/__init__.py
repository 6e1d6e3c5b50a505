"""Ratings: Glicko-2 per rule system, from rated games between accounts."""
