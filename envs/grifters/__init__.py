"""Grifters: components, rules kernel and text rendering."""
