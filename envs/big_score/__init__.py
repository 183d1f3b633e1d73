"""The Big Score: components, rules kernel and text rendering."""
