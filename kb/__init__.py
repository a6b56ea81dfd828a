"""The knowledge store: chunks, embeddings, Chroma, lexical index, hybrid search, pass registry.

kb knows nothing of kernels; it never imports diagnose, web or indexer.
"""
