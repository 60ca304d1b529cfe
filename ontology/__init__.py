"""kg's ontology (kg.ttl) and SHACL shapes (shapes.ttl), shipped with the package as ``kg.ontology``."""
