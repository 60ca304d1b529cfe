"""Shared reading of the text: the Doc index, marks, dates, word lists and gazetteers every stage uses."""
