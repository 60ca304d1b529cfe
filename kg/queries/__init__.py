"""Named SPARQL queries (``*.rq``): the competency questions the graph must answer."""
