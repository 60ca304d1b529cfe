"""Places: venues, cities, regions and countries, chained by containment."""
