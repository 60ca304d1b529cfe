"""The cast: people, groups and organisations, names the model misses, descriptions, coreference."""
