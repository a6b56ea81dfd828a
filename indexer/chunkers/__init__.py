"""Chunkers: one module per language; `chunk_file` picks by extension."""
