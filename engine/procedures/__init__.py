"""Procedures of the Commands & Colors family: functions of (state, inputs) that know
neither who calls them nor which turn structure runs (movement, line of sight, battle,
retreat, take ground, overrun, medals and objectives).  They import only ``engine.core``
and each other; optional rules plug in at the extension points of :mod:`.hooks`."""
