"""One blueprint per area of the UI; templates/<area>/ mirrors them."""
