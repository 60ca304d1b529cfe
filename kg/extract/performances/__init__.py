"""Performances: who performed which work, at which show, where and when."""
