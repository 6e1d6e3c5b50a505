"""Campaigns (004 Appendix 3 "Simplified Campaign Rules"): ordered scenarios played as
ordinary games by the same two sides, linked by the pre-battle dice."""
