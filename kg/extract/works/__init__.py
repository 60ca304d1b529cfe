"""Works: an open class of titles recognised by typography and position."""
