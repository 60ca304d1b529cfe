"""Readers: sources (text, HTML, JSONL, folders, stdin) in, Articles out; nothing of spaCy here."""

from kg.io.article import Article
from kg.io.readers import EXTENSIONS, article_id, count_articles, read_articles

__all__ = ["EXTENSIONS", "Article", "article_id", "count_articles", "read_articles"]
