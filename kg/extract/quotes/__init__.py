"""Quotations and their speakers."""
